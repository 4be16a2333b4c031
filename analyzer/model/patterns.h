/* Model queries shared by the loop and managed-memory rules (GM010, GM020, GM021, GM030,
 * GM031): read-only questions about one function's model, so each rule file stays short. The loop
 * queries are in loop_patterns.c, the kernel queries in kernel_patterns.c. */
#ifndef GM_PATTERNS_H
#define GM_PATTERNS_H

#include "model/model.h"
#include "support/source.h"

/* The variable an allocation call stores its pointer in (`cudaMalloc(&p, ..)`, `p = malloc(..)`,
 * `T *p = new T[n]`), or -1. */
int gm_alloc_target_var(const gm_node *call);

/* Why an allocation (or a call that allocates) inside a loop does not run on every iteration
 * of it: the GM010/GM020 exemption that held, each a fact about what the loop's paths do
 * (loop_exemptions.c). GM_EXEMPT_NONE (0): none did. */
typedef enum gm_exemption {
  GM_EXEMPT_NONE,
  GM_EXEMPT_RETRY_CONDITION,      /* the loop's condition holds only after the allocation failed */
  GM_EXEMPT_RETRY_SUCCESS_LEAVES, /* the branch its success takes leaves the loop */
  GM_EXEMPT_COUNTER_ITERATION,    /* gm_counter_once: one iteration of the loop's own counter */
  GM_EXEMPT_COUNTER_VALUE,        /* one value of a counter the scope moves one way only */
  GM_EXEMPT_LAZY,                 /* a test finds its place unset, its arm sets it, nothing unsets
                                     it on every round */
  GM_EXEMPT_GEOMETRIC_CAPACITY,   /* a size test whose arm grows the capacity geometrically */
  GM_EXEMPT_HIGH_WATER,           /* a size test whose arm raises the capacity to a request that
                                     does not grow with the loop */
  GM_EXEMPT_SAME_REQUEST,         /* a cached size compared with one the loop does not change */
  GM_EXEMPT_GEOMETRIC_SIZE        /* the size is multiplied on every iteration */
} gm_exemption;

/* A short phrase saying why an exemption holds, for reports. */
const char *gm_exemption_reason(gm_exemption why);
/* The exemption's stable name, as --explain and bench/realcode count it ("retry-condition"). */
const char *gm_exemption_id(gm_exemption why);

/* Whether `call` inside `loop` runs only now and then, under an if of the loop (loop NULL: of
 * its function, whoever calls it): a test that finds a place unset whose arm sets it (`if (!buf)
 * cudaMalloc(&buf, n)`, `if (!init[t]) { ...; init[t] = true; }`), a size test whose arm raises
 * the capacity it compares (geometrically, or to requests that do not grow), a test for one value
 * of a counter the scope only moves one way (`if (iter == 0)`), or one value of the loop's own
 * counter. A place declared in the scope, or set again on every path through it, remembers
 * nothing. Any call may be asked about (a call that allocates on the way). */
gm_exemption gm_alloc_guarded(const gm_func *fn, const gm_node *call, const gm_node *loop);

/* Whether allocation `call`'s size is multiplied on every iteration of `loop` (`cap *= 2` with
 * `realloc(p, cap)`): a logarithm of the final size in iterations, linear copying in all. */
gm_exemption gm_geometric_size(const gm_node *loop, const gm_node *call);

/* The first of gm_retry_loop, gm_alloc_guarded, gm_geometric_size that holds for `call` in
 * `loop`: it does not repeat on every iteration of this loop. */
gm_exemption gm_loop_exemption(const gm_func *fn, const gm_node *call, const gm_node *loop);

/* The innermost loop, from `loop` (around `call`) outward, on each iteration of which `call`
 * repeats: an exemption for one loop makes the call once per run of that loop, which a loop
 * around it may still repeat (`if (b == 0)` in a loop over batches, inside a loop over epochs).
 * NULL when every loop is exempt; *why: the exemption of the last loop that was. */
const gm_node *gm_repeating_loop(const gm_func *fn, const gm_node *call, const gm_node *loop,
                                 gm_exemption *why);

/* Whether e grows with `loop`: it reads, through +, * and shifts, a variable that every write
 * in the loop increases or sets to such a value (`total += len`, `n++`, `total = need` with
 * `need = total + len` declared in the loop, `cap = n + len`). */
int gm_grows_with_loop(const gm_func *fn, const gm_node *loop, const gm_node *e);

/* Whether statement n holds a `continue` of the loop around it (an inner loop's are its own), or
 * with `returns` a return: a path that skips what follows n in its block. */
int gm_skips_rest(const gm_node *n, int returns);

/* Whether two expressions name the same place: `p`, `s->buf`, `t[i].p`, `*pp`. */
int gm_same_place(const gm_node *a, const gm_node *b);

/* The regrow-and-copy pattern (GM020): in `loop`, `call` allocates a buffer whose size the loop
 * changes, a copy moves the old buffer into it, and the old buffer is freed (or `call` is a
 * realloc of its own pointer). The old buffer is the one the loop carries over (assigned the new
 * one, saved before the allocation reuses its place, or swapped with it), not a staging buffer
 * made and freed within the iteration. Fills the copy and free nodes (both NULL for realloc).
 * A regrowth that is capacity-guarded or geometric returns 0 with *why saying so. */
int gm_growing_concat(const gm_func *fn, const gm_node *call, const gm_node *loop,
                      const gm_node **copy, const gm_node **free_call, gm_exemption *why);

/* Whether allocation `call` stores into a different element of a table on each iteration of
 * `loop` (`&bufs[i]`, `&plan[i].buf`, `&ctx->bufs[i]`, `bufs + i`, `&p->buf` with `p = &plan[i]`
 * or `++p` in the loop, `&q.buf` with `for (auto &q : plans)`); *table is the variable the
 * elements are reached through, or -1. */
int gm_table_slot(const gm_func *fn, const gm_node *loop, const gm_node *call, int *table);

/* Whether lvalue lv (a member reached through an object: `bufs[i].alloc`, `p->buf`) is a
 * different element of a table on each iteration of `loop`, as gm_table_slot judges it. */
int gm_element_slot(const gm_func *fn, const gm_node *loop, const gm_node *lv, int *table);

/* Whether allocation `call` fills a local that the loop then keeps in a different element of a
 * table on each iteration (`bufs[i] = buf;`, `bufs.push_back(buf);`); *table is the table's
 * variable. */
int gm_kept_in_table(const gm_func *fn, const gm_node *loop, const gm_node *call, int *table);

/* An allocation into an element of a global array that a loop refills (gm_global_slot_refilled):
 * the call of its function in the loop, that loop and its function, the table, and the index
 * as the allocating function writes it (index_name: the parameter's name, NULL for a
 * constant). */
typedef struct gm_slot_refill {
  const gm_node *call_in_loop, *loop;
  const gm_func *caller;
  const gm_var *table;
  const gm_node *index;
  const char *index_name;
} gm_slot_refill;

/* Whether allocation `call` of host function `fn` stores into an element of a global array
 * (`cudaMalloc(&slots[i], n)`, i a parameter or a constant) on every call of fn without looking
 * at what the element holds (neither fn nor what it calls tests, frees or hands on the table;
 * uses that read or write the block are allowed), and a loop of the unit calls fn on every
 * iteration for the same element (the index argument loop-invariant) with nothing in the loop
 * that may test or free the table: each call after the first loses the block the previous one
 * stored. A function the unit has no body for may touch a table other files see. */
int gm_global_slot_refilled(const gm_tu *tu, const gm_func *fn, const gm_node *call,
                            gm_slot_refill *out);

/* Whether a loop makes a device current on each iteration (cudaSetDevice, cuCtxSetCurrent,
 * cuCtxPushCurrent): one operation per GPU. */
int gm_loop_switches_device(const gm_node *loop);
/* Whether a call makes a device current: cudaSetDevice, cuCtxSetCurrent, cuCtxPushCurrent, or a
 * function of the file that calls one (call->selects_device). */
int gm_call_switches_device(const gm_node *call);

/* Whether a loop walks the elements of data rather than devices or streams: its condition
 * compares a variable the loop steps with a bound that is no device count (a constant above
 * the device-count threshold, a variable no cudaGetDeviceCount/cuDeviceGetCount fills in fn), and
 * its body selects no device and creates no stream or event. Unknown (a range-for, a compound
 * condition): 0. */
int gm_loop_over_data(const gm_func *fn, const gm_node *loop);
/* Whether the loop's bound is a constant no larger than the device-count threshold (so it may
 * walk devices: MAX_GPUS); *bound is that constant. */
int gm_loop_constant_device_bound(const gm_func *fn, const gm_node *loop, long long *bound);

/* Whether a loop's body selects a device or context, or creates a stream or event. */
int gm_loop_selects_device(const gm_node *loop);

/* Whether expression e reads a variable that `loop` modifies. */
int gm_depends_on_loop(const gm_node *loop, const gm_node *e);

/* How a pointer expression moves across iterations of `loop`: 1 it steps regularly (`d + i`,
 * `&h[i]`, a pointer the loop increments or sets to `base + i * k`), 0 it stays put (`&x`, an
 * unchanged pointer), -1 it jumps irregularly (loaded from a table, a data-dependent index). */
int gm_address_stride(const gm_node *loop, const gm_node *e);

/* A retry loop for this call: the loop goes round again only after the call failed. Its
 * condition, when it holds, says so (`while (cudaMalloc(&p, n) != cudaSuccess)`, a status
 * variable the loop sets only from allocations, the runtime's last status when the call set it),
 * or the branch the call's success takes leaves the loop (`if (e == cudaSuccess) break;`). A
 * loop that goes on while the call succeeds is no retry. */
gm_exemption gm_retry_loop(const gm_node *loop, const gm_node *call);

/* Whether `loop` launches a kernel (directly, through cudaLaunchKernel, or a same-file call). */
int gm_loop_launches(const gm_node *loop);

/* Whether n lies inside `ancestor`. */
int gm_inside(const gm_node *n, const gm_node *ancestor);

/* The kernel of `tu` with this USR (or, failing that, this name), or NULL. */
const gm_func *gm_find_kernel(const gm_tu *tu, const char *usr, const char *name);

/* A dense access of the kernel's parameter `param` (`p[i]` with i affine in threadIdx, blockIdx,
 * blockDim, gridDim or a cooperative group's thread_rank(), including grid-stride loops), in the
 * kernel or in a same-file __device__ helper it passes the pointer to; NULL when every access is
 * data-dependent or the parameter is not indexed by thread. *where: the function holding it. */
const gm_node *gm_kernel_dense_access(const gm_tu *tu, const gm_func *kernel, int param,
                                      const gm_func **where);

/* The statement holding n that is a direct child of `seq` (a block), or NULL. */
const gm_node *gm_statement_in(const gm_node *n, const gm_node *seq);

/* The whole lines [*begin, *end) that statement s occupies, if nothing else shares them (only
 * blanks before it; only blanks, `;` and a // comment after it). */
int gm_whole_lines(const gm_source *src, const gm_node *s, unsigned *begin, unsigned *end);

/* The leading blanks of the line holding byte `offset`, malloc'd. */
char *gm_line_indent(const gm_source *src, unsigned offset);

#endif
