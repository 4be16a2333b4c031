/* Private to the flow engine (analyzer/flow/): the types its files share (abstract values, path
 * states, summaries, the engine) and the functions one of its files calls in another. flow.h is
 * the engine's public interface; nothing outside analyzer/flow/ includes this header. */
#ifndef GM_FLOW_ENGINE_H
#define GM_FLOW_ENGINE_H

#include "flow/flow.h"
#include "model/loop_counter.h"

#include <stdint.h>

/* Caps measured on 339 real .cu files (BENCHMARKS.md "Real CUDA code"): 128 states and a
 * million steps cut 27 functions short where 48 and 200,000 cut 40; CPU on the 36 files that hit
 * the old caps rose from 23.9 s to 34.4 s, and the other files never reach them. */
enum { MAX_STATES = 128, LOOP_ROUNDS = 3, STEP_BUDGET = 1000000 };

/* Paths that meet with the same objects held the same way, differing only in scalars (the
 * option variables a getopt loop's cases set), go on as one once a list holds this many: kept
 * apart they multiply (2^k for k options) and fill every list to MAX_STATES for the rest of the
 * function, and its leaks were lost when the step budget ran out. */
enum { SCALAR_JOIN_STATES = 16 };

/* Rounds over one set of mutually recursive functions before their summaries are given up on
 * (every parameter handed over): each round follows every member once, and the summaries of
 * real recursions (a walk, a tree teardown) settle in two or three. */
enum { RECURSION_ROUNDS = 8 };

/* Work that grows with a state's size (copying one at a branch, hashing and comparing it where
 * paths meet, collecting its objects, checking its objects at an exit) counts in the step
 * budget: this many objects, slots or decisions to a step, so that a function whose state keeps
 * growing is cut short rather than running for minutes (issue 30). At 16 a step so counted
 * costs about what an evaluation step does: 0.3 us in bench/generated_code.sh checked 3000
 * (mostly such steps), 0.5 us in allocations 20000 (evaluation only). */
enum { STATE_ELEMS_PER_STEP = 16 };

/* ---- abstract values and states ---- */

/* V_RESULT: the status of the call that allocated object `ref` (nonzero: it failed); V_OK: the
 * same from a helper returning bool (false: it failed), or that status compared equal to
 * success; V_FREED: the status of the call that freed it (a failed free leaves nothing to
 * judge); V_HANDLE: what a fallible call returned (null or negative: it failed); V_STATIC: the
 * address of storage no allocator made, an array variable's (ref: the variable) or a string
 * literal's (ref -1). */
enum val_kind {
  V_UNKNOWN,
  V_NULL,
  V_CONST,
  V_OBJ,
  V_RESULT,
  V_ADDR,
  V_FREED,
  V_OK,
  V_HANDLE,
  V_STATIC
};

/* A state's identity is declared here once: the X-macro lists below name the fields that two
 * states must agree on to be one state, and state.c compares and hashes them from these lists
 * alone (as the Clang Static Analyzer profiles a state next to its data). A field left out of a
 * list is declared outside it, with why it does not decide identity. X(type, name) */

/* A value: every field decides identity. */
#define VAL_IDENTITY(X)                                                                            \
  X(unsigned char, kind)                                                                           \
  X(unsigned char, offset) /* V_OBJ: points inside the object, not at its start */                 \
  X(int, ref)              /* V_OBJ/V_RESULT/V_FREED: object index; V_ADDR: slot */

#define GM_FLOW_FIELD(type, name) type name;

typedef struct val {
  VAL_IDENTITY(GM_FLOW_FIELD)
} val;

enum obj_state { OBJ_LIVE, OBJ_FREED, OBJ_FAILED };

/* Where managed memory's pages were last touched (GM030): a fresh allocation has none, and
 * pages first touched on the device (a fill, a kernel, a copy from device memory) are created
 * there, so a launch has nothing to migrate. Any other object reads as touched on the host. */
enum obj_touch { TOUCH_HOST, TOUCH_NONE, TOUCH_DEVICE };

/* What an object is on a path: what its paths may go on to do with it, and what the summary of
 * its function reads at an exit (published() reads stored_away). */
#define OBJ_IDENTITY(X)                                                                            \
  X(const gm_node *, site) /* allocation call; NULL for a parameter's pointee */                   \
  X(const gm_node *, freed_at)                                                                     \
  X(int, param)       /* parameter index for parameter objects, else -1 */                         \
  X(int, deref_param) /* what parameter `T **pp` points at (*pp), else -1 */                       \
  X(unsigned char, state)                                                                          \
  X(unsigned char, escaped)                                                                        \
  X(unsigned char, nonnull)     /* a null test on this path found it non-null */                   \
  X(unsigned char, prefetched)  /* managed memory placed by cudaMemPrefetchAsync/cudaMemAdvise */  \
  X(unsigned char, touch)       /* managed memory: enum obj_touch */                               \
  X(unsigned char, stored_away) /* stored where the engine does not follow (`t[i] = p`) */         \
  /* what a member of an object from outside (or a global pointer) held on entry (members.c) */    \
  X(unsigned char, on_entry)                                                                       \
  /* escaped only into such a member: the object owns it, and overwriting the member loses it */   \
  X(unsigned char, member_only)                                                                    \
  /* its allocation's status is the runtime's last one: no call that may fail has run since,       \
   * and no cudaGetLastError() read it (at most one object of a state) */                          \
  X(unsigned char, last_status)

typedef struct obj {
  OBJ_IDENTITY(GM_FLOW_FIELD)
  /* Not identity: fixed by a field above (the family by the site, the free's row and name by
   * the free call), or a name for messages that the first path to reach a state gives it. */
  const gm_family *family; /* NULL when unknown (parameters) */
  const char *owner;       /* first variable that held it */
  const gm_fn *freed_by;   /* for summaries: the free that released it */
  const char *freed_via;
  /* the allocation and the free a helper call stands for, inside the helper (through a chain of
   * helpers, the innermost); the call itself when it is no helper */
  const gm_node *inner_site, *freed_inner;
  /* a call that gave it another address (cudaHostGetDevicePointer), and the slot it went to */
  const gm_node *alias_call;
  int alias_slot;
  /* Not identity: counts kept by flow_slot_set_raw, so that a statement's collection looks only
   * at the objects no slot names (state.c) instead of passing over every slot and object. */
  int refs;             /* slots that name it: a pointer, its status or its free's result */
  int pointers;         /* those of them that hold a pointer to it (V_OBJ) */
  unsigned char queued; /* in the state's list of objects no slot names */
} obj;

/* A branch decision: condition `key` came out `truth`. Equality decisions also name the expression
 * (`base`) and the constant it was compared with, so `x == 1` excludes `x == 2`. */
#define DECISION_IDENTITY(X)                                                                       \
  X(uint64_t, key)                                                                                 \
  X(unsigned char, truth)                                                                          \
  X(unsigned char, passed) /* `c == V` was true on an earlier iteration of c's loop: false now */

typedef struct decision {
  DECISION_IDENTITY(GM_FLOW_FIELD)
  /* Not identity: fixed by the key (what the condition reads, and for `x == K` x and K). */
  uint64_t deps;
  uint64_t base;
  long long value;
  unsigned char is_eq;
} decision;

/* A path state. Its identity is its objects, its slots with their exposure, and its decisions
 * (each compared by its list above; slots past the end read as unknown, decisions as a set); two
 * states equal in these are one, whatever path each came by. */
typedef struct state {
  obj *objs;
  int nobjs, capobjs;
  val *slots;
  unsigned char *exposed; /* per slot: its address reached code we do not model */
  int nslots;
  decision *decisions;
  int ndecisions, capdecisions;
  /* Not identity. Joined where equal states meet: error_path and latent hold if they hold on
   * every path merged. The first path's: ghosts and skipped_by. */
  int error_path; /* took a branch that a failed call takes (error status, null) */
  /* latent: took a branch against a decision made earlier on this path that a call the engine
   * does not follow made it forget (ghosts: those forgotten decisions), or on a condition clang
   * could not type; a fact found on such a path holds only for some values of what the engine
   * cannot see */
  int latent;
  /* A branch on code clang could not type: which one this path took and which way (guess_way);
   * guess_many: more than one such guess. The path is latent while it rests on one; where both
   * ways of the same branch meet in one state, what follows no longer rests on it (state.c). */
  const gm_node *guess;
  unsigned char guess_way, guess_many;
  decision *ghosts;
  int nghosts, capghosts;
  const gm_node *skipped_by; /* the continue that ended this path's last iteration early */
  int dead;                  /* the path ended (no list keeps a dead state) */
  /* the digest of the objects, slots and exposure, taken while the state waits in a list, when
   * first compared; a state changes only between lists, never while it waits in one (state.c) */
  uint64_t digest;
  int has_digest;
  /* Not identity, bookkeeping that keeps a statement's work to what it touches: the objects no
   * slot names (each with obj.queued set; only they can be collected), and the only object whose
   * last_status may be set (-1: none), so that a call that may fail forgets it in one step. */
  int *unnamed;
  int nunnamed, capunnamed;
  int status_obj;
} state;

typedef GM_VEC(state *) state_list;

typedef struct flow_out {
  state_list next, brk, cont;
} flow_out;

/* ---- summaries ---- */

enum param_effect { P_NONE, P_ESCAPES, P_FREES, P_OUT_ALLOC, P_FREES_DEREF };

typedef struct param_summary {
  enum param_effect effect;
  int prefetches;            /* prefetches or advises its parameter on every path */
  const gm_node *launch;     /* launches a kernel with it, unprefetched */
  const gm_node *host_touch; /* host code reads or writes through it */
  const char *kernel_usr, *kernel_name;
  int kernel_param;
  const gm_family *family; /* P_OUT_ALLOC */
  gm_fn free_row;          /* P_FREES, P_FREES_DEREF: acts as this free */
  const char *via;         /* P_FREES, P_FREES_DEREF: the inner free's name */
  /* P_FREES, P_FREES_DEREF: the free call inside (innermost); P_OUT_ALLOC: the allocation
   * inside; NULL for an imported summary */
  const gm_node *inner;
  int nulls; /* P_FREES_DEREF, P_FREES of a reference: leaves the pointer null on every path */
  const gm_node *remote_access; /* imported: where the launched kernel reads it densely */
  const char *remote_where;
} param_summary;

/* A method (a destructor, a release() it calls) frees this member of `this` on every path
 * (objects.c). */
typedef struct member_free {
  const char *member; /* as a path under the object: "data", "buf.ptr" */
  gm_fn free_row;     /* acts as this free, named after the destructor */
  const char *via;
  const gm_node *inner; /* the free call inside (innermost) */
} member_free;
/* What a function does to a member of an object it is given (gm_member_effect): root is the
 * parameter's index, -1 for this. */
typedef struct member_effect {
  int root;
  const char *member;
  unsigned char clobbers, fills;
  const gm_family *family; /* fills */
  const gm_node *inner;    /* fills: the allocation inside, or NULL when imported */
} member_effect;

typedef struct summary {
  const gm_func *fn;
  uint64_t usr_hash;
  int known;
  /* A member of a call cycle before its first exit is seen: no path through a call to it has
   * returned yet, so such a call ends the path (the bottom a recursion's fixed point starts
   * from, summary.c); never left set once summaries are done. */
  int pending;
  /* its recursion's summaries did not settle within RECURSION_ROUNDS: every parameter escapes */
  int unsettled;
  int noreturn;
  const gm_family *returns_fresh;
  const gm_node *returns_site; /* returns_fresh: the allocation inside (innermost), or NULL */
  /* 1 + the parameter it returns unchanged on every path (0: none): `return check(status)`,
   * `return p + 4`; returns_arg_offset: a pointer inside the parameter's block */
  int returns_arg;
  int returns_arg_offset;
  int nparams;
  param_summary *params;
  /* a method: the members of `this` it frees on every path */
  member_free *member_frees;
  int nmember_frees;
  int nmembers;
  member_effect *members;
} summary;

/* A member's observations while summarising (members.c). */
struct member_obs {
  int slot, root;
  const char *member; /* root and member as the summary names them (the paths go at the end) */
  int clobbered, fresh;
  const gm_family *family;
  const gm_node *inner;
};

/* Per-exit observations gathered while summarising a function. */
typedef struct summary_obs {
  int exits;
  int pending_cuts; /* paths ended at a call to a pending summary */
  int ret_fresh, ret_other;
  /* 1 + the parameter every exit so far returns unchanged (0: none yet), exits returning
   * anything else, and whether one returns a pointer inside the parameter's block */
  int ret_param, ret_param_other, ret_param_offset;
  const gm_family *ret_family;
  int *freed, *escaped, *out_fresh, *out_other;
  int *deref_freed, *deref_nulled; /* `T **pp` parameters: *pp freed, *pp null at the exit */
  const gm_fn **free_rows;
  const char **free_via;
  const gm_node **free_inner, **out_inner, *ret_inner;
  const gm_family **out_family;
  int *prefetched;
  const gm_node **launch;
  const gm_node **host_touch;
  const char **kernel_usr, **kernel_name;
  int *kernel_param;
  /* members of this or of a pointer parameter (members.c): whether a path overwrote what the
   * member held on entry untested, and on how many exits it holds a block stored here */
  GM_VEC(struct member_obs) members;
} summary_obs;

/* A member of `this` that a destructor being summarised frees somewhere: the slot that keeps
 * what it held on entry (named by no code, so its object is never collected), and on how many
 * exits that was freed. */
typedef struct member_anchor {
  int slot;
  const char *member;
  int freed;
  const gm_fn *row;
  const char *via;
  const gm_node *inner;
} member_anchor;

typedef GM_VEC(long long) value_vec;
typedef GM_VEC(uint64_t) key_vec;

/* The members a remembered decision's condition reads, as a 64-bit Bloom filter of their names
 * (flow_member_bit), or ALL_MEMBERS when it reads through a pointer or an index. */
typedef struct decision_reads {
  uint64_t key;
  uint64_t members;
} decision_reads;
#define ALL_MEMBERS (~0ULL)

/* The switch being followed: its entry states, and what its case labels may assume. */
struct switch_ctx {
  state_list *entries;
  int pure; /* the condition has no side effects: its value can be remembered */
  uint64_t base, deps;
  value_vec values; /* its cases' constants */
};

/* A loop being followed, with what its counter (if it has one) tells about each iteration:
 * whether it runs at all (the same range as another loop's: both run or neither does), and which
 * value of the counter is the last. */
struct active_loop {
  const gm_node *loop;
  int counted; /* c: it has a counter */
  gm_counter c;
  uint64_t ckey; /* the counter's key (flow_node_key of the variable) */
  uint64_t cdeps;
  int has_range; /* range_key: the key of `the loop runs at least once` */
  uint64_t range_key;
  int has_last; /* last_x + last_k: the counter's value on the last iteration */
  uint64_t last_x, last_key, last_deps;
  long long last_k;
};

typedef struct engine {
  const gm_tu *tu;
  const gm_func *fn;
  summary *summaries; /* one per function of the unit, in its order */
  int nsummaries;
  /* the first function of each USR, by open addressing on its hash (flow_function_of): calls
   * and lambdas look their function up here, not by scanning every function */
  int *by_usr;
  size_t by_usr_mask;
  const gm_flow_imports *imports; /* other files' summaries, or NULL */
  /* the imported helper whose launch flow_note_launch_arg records */
  const param_summary *launching;
  /* other files' summaries converted on first use (NULL sum: none found), and the index of
   * each USR among them by open addressing on its hash (flow_summary_for) */
  GM_VEC(struct imported_summary {
    const char *usr;
    uint64_t usr_hash;
    summary *sum;
  })
  imported;
  int *imported_by_usr;
  size_t imported_mask;
  int summary_mode;
  summary_obs obs;
  GM_VEC(char *) paths;          /* pseudo-variables: member and dereference paths */
  unsigned char *addr_taken;     /* per var */
  unsigned char *assigned;       /* per var: assigned, incremented or decremented somewhere */
  unsigned char *used_otherwise; /* per var: used otherwise than compared by a library
                                    comparison, assigned or destroyed (flow_mark_object_uses) */
  const gm_node *returning;      /* summarising: the expression of the return being observed */
  unsigned char *aggregate;      /* per var: a local struct whose uses are followed (aggregate.c) */
  GM_VEC(struct pending_goto {
    const char *label;
    state *st;
  })
  gotos;
  GM_VEC(struct switch_ctx *) switch_entries;
  struct leak_index { /* the leak fact of each site reported so far, by site (facts.c) */
    const gm_node **sites;
    size_t *facts;
    size_t cap, len;
  } reported;
  const gm_node **array_init; /* per var: its initialiser list (cudaLaunchKernel args) */
  GM_VEC(gm_fact) facts;
  long steps;
  long state_work;  /* elements of states handled, not yet counted in steps (flow_charge) */
  key_vec retested; /* sorted: conditions tested at two places or more */
  GM_VEC(decision_reads) reads;       /* what the conditions of remembered decisions read */
  GM_VEC(struct active_loop) loops;   /* the loops being followed, innermost last */
  GM_VEC(unsigned char) dep_bit;      /* per variable: its bit in fact dependencies (slot_bit) */
  const struct active_loop *stepping; /* the loop whose increment is being followed */
  GM_VEC(member_anchor) anchors;      /* summarising a destructor: the members it frees */
  /* per variable: read by a condition that decides an allocation or a free (flow.c); a path
   * slot is one when such a condition reads any member or pointee (guard_paths); guard_bits:
   * their bits in decisions' dependencies. Paths differing only in other scalars are joined. */
  unsigned char *guards;
  int guard_paths;
  uint64_t guard_bits;
  int truncated;
} engine;

/* A branch fact's dependencies: one bit per local slot (see slot_bit), and
 * MEMORY_DEP for anything read through memory (members, pointees, globals, references), which
 * any store through a path or any call that may write memory invalidates. */
#define MEMORY_DEP (1ULL << 62)
#define GLOBAL_DEP (1ULL << 63) /* globals and locals whose address escaped: any call may write */
enum { SHARED_BIT = 61 };

/* Called on every step of every path: kept inline across the engine's files. A variable's bit:
 * its own for those that remembered decisions read (flow_find_retested gives them out, up to 61),
 * one shared bit for every other slot, so that writing a variable that no remembered decision reads
 * forgets none of them. */
static inline uint64_t slot_bit(const engine *e, int slot) {
  return 1ULL << (slot >= 0 && (size_t)slot < e->dep_bit.len ? e->dep_bit.items[slot] : SHARED_BIT);
}

/* Counts n elements of a state (objects, slots, decisions) handled at once in the step budget. */
static inline void flow_charge(engine *e, long n) {
  e->state_work += n;
  e->steps += e->state_work / STATE_ELEMS_PER_STEP;
  e->state_work %= STATE_ELEMS_PER_STEP;
}

static inline val mk(int kind, int ref) {
  return (val){(unsigned char)kind, 0, ref};
}

static inline val slot_get(const state *s, int slot) {
  val v = {V_UNKNOWN, 0, 0};
  if (slot >= 0 && slot < s->nslots)
    return s->slots[slot];
  return v;
}

/* ---- across the engine's files ---- */

/* state.c: path states, their objects, slots and branch decisions, and lists of states */
state *flow_state_new(void);
state *flow_state_copy(engine *e, const state *s);
/* taken and other are the two ways of a branch on code clang could not type (cond). */
void flow_guess_branch(state *taken, state *other, const gm_node *cond);
/* Whether what the path shows rests on a decision the engine could not keep or on a guess. */
int flow_state_latent(const state *s);
void flow_state_swap(state *a, state *b);
void flow_state_free(state *s);
void flow_list_free(state_list *l);
void flow_slot_set_raw(state *s, int slot, val v);
int flow_obj_new(state *s, obj o);
/* Whether a slot holds a pointer to the object. */
int flow_obj_referenced(const state *s, int id);
void flow_drop_memory_decisions(const engine *e, state *s, const gm_node *call);
void flow_decisions_invalidate(const engine *e, state *s, int slot);
void flow_decision_add(state *s, uint64_t key, uint64_t deps, int truth);
void flow_eq_decision_add(state *s, uint64_t base, uint64_t deps, long long value, int truth);
int flow_decision_find(const state *s, uint64_t key);
int flow_eq_find(const state *s, uint64_t base, long long value);
/* What a forgotten decision said: the truth of fact `key` (or of `base == value`), or -1. */
int flow_ghost_find(const state *s, uint64_t key);
int flow_ghost_eq_find(const state *s, uint64_t base, long long value);
/* Whether two states that each came out of a list unchanged but for their decisions are one:
 * their digests are compared first. */
int flow_state_equal_in_lists(engine *e, state *a, state *b);
void flow_list_add(engine *e, state_list *l, state *s);
void flow_list_move_all(engine *e, state_list *to, state_list *from);
char *flow_path_text(engine *e, const gm_node *n);
int flow_path_slot(engine *e, char *text);
int flow_lvalue_slot(engine *e, const gm_node *n, int *owning);
const char *flow_slot_name(engine *e, int slot);
int flow_slot_out_param(engine *e, int slot);

/* facts.c: the memory facts recorded on a path */
void flow_report_leak(engine *e, state *s, int id, const gm_node *at, enum gm_exit_kind how);
/* Forgets the sites reported (between functions); with release, frees what it held too. */
void flow_leak_index_clear(engine *e, int release);
void flow_check_exit(engine *e, state *s, const gm_node *at, enum gm_exit_kind how);
/* Whether fn is the program's main (a return from it ends the process). */
int flow_is_program_main(const gm_func *fn);
void flow_do_free(engine *e, state *s, const gm_node *call, val v, const gm_fn *row,
                  const char *via, const gm_node *inner);
void flow_note_host_touch(engine *e, state *s, val v, const gm_node *at);
void flow_note_launch_arg(engine *e, state *s, val v, const gm_node *launch, const char *usr,
                          const char *kname, int param, const gm_node *via);
void flow_note_prefetch(engine *e, state *s, val v, const gm_node *at);
void flow_note_device_write(state *s, val v);
void flow_touch_on_host(state *s, int ref);
void flow_launch_through_api(engine *e, state *s, const gm_node *n);
void flow_note_lambda_launches(engine *e, state *s, const gm_node *lambda_node);

/* eval.c: expressions and calls */
void flow_escape_val(state *s, val v);
val flow_eval(engine *e, state *s, const gm_node *n);

/* cond.c: branch conditions and the decisions remembered */
int flow_is_pure(const gm_node *n, uint64_t *deps, const engine *e);
/* Fills e->used_otherwise for the function being run. */
void flow_mark_object_uses(engine *e);
uint64_t flow_node_key(const gm_node *n, uint64_t h);
void flow_cond_split(engine *e, state *s, const gm_node *c, state_list *t, state_list *f);
void flow_split_unknown(engine *e, state *s, const gm_node *cond, state_list *t, state_list *f);
/* cond.c: shared with decisions.c */
int flow_is_null_node(const gm_node *n);
/* `(status = call(...))` compared with a constant decides about `status` itself */
const gm_node *flow_decided_node(const gm_node *n);
/* `a OP b` for a comparison operator as clang spells it ("<", "==", ...); 0 for one it is
 * not (`<=>`). */
int flow_compare(const char *op, long long a, long long b, int *truth);

/* a counted loop's `it runs at least once` decision (its first test) */
int flow_range_key(const gm_counter *c, uint64_t *key);

/* decisions.c: remembered decisions */
void flow_find_retested(engine *e, const gm_node *body);
int flow_retested(const engine *e, uint64_t key);
uint64_t flow_member_bit(const char *name);
/* The members decision f read (ALL_MEMBERS when unknown): a store to another member keeps it. */
uint64_t flow_members_read_by(const engine *e, const decision *f);
/* A loop's counter (cond.c): flow_loop_begin after its init (the counter equals its start),
 * flow_loop_test for each test of its condition (first: the test before the first iteration),
 * flow_loop_end with the states that leave it. flow_counter_passed: the decisions that survive a
 * step of the counter (`c == V` was true: from now on it is false), written to out (at most max);
 * the others are dropped. */
void flow_loop_begin(engine *e, const gm_node *loop, state_list *entering);
void flow_loop_test(engine *e, state *s, int first, state_list *t, state_list *f);
void flow_loop_end(engine *e, state_list *exits);
int flow_counter_passed(const engine *e, const state *s, decision *out, int max);

/* errpath.c: which paths are error paths */
void flow_forget_last_status(state *s);
void flow_set_last_status(state *s, int id);
val flow_read_last_status(state *s);
val flow_status_comparison(const gm_node *call, const val *args);
/* Splits on c, a comparison of va and vb, if it tests a fallible call's result for failure
 * (returns 1); the failure's branch is an error path. */
int flow_split_on_failure_test(engine *e, state *s, const gm_node *c, val va, val vb, state_list *t,
                               state_list *f);
void flow_split_marking_failure(engine *e, state *s, const gm_node *c, int fails_when_true,
                                state_list *t, state_list *f);
const gm_node *flow_condition_variable(const gm_node *comma);
/* `exit(status)` in any function: leaks checked on the paths where status says success. */
void flow_check_process_exit(engine *e, state *s, const gm_node *call);

/* exec.c: statements */
void flow_exec(engine *e, state_list *in, const gm_node *n, flow_out *out);

/* aggregate.c: local structs, whose members own what is stored in them until they escape */
void flow_find_local_aggregates(engine *e);
/* The local aggregate a member lvalue (`desc.data`, `desc.in.p`) is rooted at, or -1. */
int flow_aggregate_root(const engine *e, const gm_node *lv);
/* A member slot of a local aggregate as written (`plan.in.data`), or NULL. */
const char *flow_aggregate_member_name(engine *e, int slot);
/* Whether the slot is a member of a local aggregate that a call may have kept. */
int flow_aggregate_exposed(const engine *e, const state *s, int slot);
/* A call that may keep argument arg: what the struct it hands over holds gets away. */
void flow_escape_aggregate(engine *e, state *s, const gm_node *arg);
/* flow_escape_aggregate for each argument (and object) of a call that may keep it. */
void flow_call_hands_over(engine *e, state *s, const gm_node *call);

/* members.c: members of objects from outside (pointer and reference parameters, this, globals) */
/* Whether a `this` expression. */
int flow_is_this(const gm_node *n);
/* Whether slot is such a member's path, and its name as written (`c->d`, `w`), or NULL. */
int flow_outside_member_slot(const engine *e, int slot);
const char *flow_outside_member_name(engine *e, int slot);
/* At entry (not when summarising): what the members and global pointers the function frees
 * held before it ran, each an object of its own. */
void flow_seed_entry_members(engine *e, state *s);
/* After a call that may write an object from outside, what its members held is unknown. */
void flow_forget_outside_members(engine *e, state *s, const gm_node *call);
/* After var (a root) is assigned: what its members held is unknown. */
void flow_forget_members_of(engine *e, state *s, int var);
/* A local object declared (again, in a loop): a new object, whose members hold nothing that a
 * member effect put there before. */
void flow_forget_declared_members(engine *e, state *s, int var);
/* Summarising: what the members the function allocates into held on entry, each an object of
 * its own, so that overwriting it untested is seen (flow_note_member_store). */
void flow_seed_filled_members(engine *e, state *s);
/* Summarising: slot was just assigned over old; overwriting a member's entry block untested is
 * noted, and at an exit whether each member holds a block stored here. */
void flow_note_member_store(engine *e, state *s, int slot, val old);
void flow_observe_member_exit(engine *e, state *s);
/* Summarising: the member effects the observations add up to (into sum); whether they differ
 * from old's. */
int flow_member_effects_finish(engine *e, const summary *old, summary *sum);
/* A call with member effects: what the members it names held before it (taken before the
 * call is evaluated), and after it, what it left there, reporting a block it overwrote. */
typedef struct member_before member_before;
member_before *flow_member_effects_before(engine *e, state *s, const gm_node *call,
                                          const summary *sum);
void flow_member_effects_apply(engine *e, state *s, const gm_node *call, const summary *sum,
                               member_before *before);

/* members.c: summarising a function, what the members of `this` it frees held on entry, each an
 * object of its own, kept in e->anchors (a method's summary: the members it frees). */
void flow_seed_this_members(engine *e, state *s);
/* Whether a call is of a member function on this object (`reset()`, `this->reset()`). */
int flow_calls_on_this(const gm_node *call);

/* objects.c: objects with destructors (a local at the end of its scope, a by-value argument's
 * copy when its call ends) */
int flow_is_destructor(const gm_func *fn);
/* Summarising a destructor: counts at an exit which anchored members were freed. */
void flow_observe_destructor_exit(engine *e, const state *s);
/* The members the anchors show freed on every exit (into sum), then forgets the anchors. */
void flow_summarise_member_frees(engine *e, summary *sum);
/* Runs the destructor (dtor_usr) of the object lv names: frees what its members hold as the
 * destructor's summary says, the free placed at `at`. */
void flow_destroy_object(engine *e, state *s, const gm_node *lv, const char *dtor_usr,
                         const gm_node *at);
/* A local object declared: what the members its destructor frees hold is its own (a copy of
 * another object's, unknown). */
void flow_construct_local(engine *e, state *s, const gm_node *decl);
/* After a call that may change a local object (a method called on it, its address or a
 * non-const reference to it handed over), what its members hold is unknown. */
void flow_forget_written_objects(engine *e, state *s, const gm_node *call);
/* A method called on this (`release()` in a destructor): frees the members its summary frees
 * (before the call forgets what this's members hold). */
void flow_apply_member_frees(engine *e, state *s, const gm_node *call, const summary *sum);
/* Whether destroying an object with this destructor frees anything. */
int flow_destructor_frees(engine *e, const char *dtor_usr);

/* summary.c: summaries of same-file functions */
summary *flow_summary_for(engine *e, const char *usr);
/* Whether every candidate of a dependent call (gm_node.overloads) only borrows argument arg. */
int flow_overloads_borrow(engine *e, const gm_node *call, int arg);
/* The exported form of the main file's summaries and its headers' reached ones (gm_flow_analyze).
 */
void flow_export_summaries(engine *e, gm_call_summary **out, int *n);
void flow_observe_exit(engine *e, state *s, val ret);
int flow_summarise(engine *e, summary *sum);

/* flow.c: one function from its entry state to its exits */
void flow_run_function(engine *e, const gm_func *fn);
/* The index in summaries of the first function whose USR is usr; -1 if none. */
int flow_function_of(const engine *e, const char *usr);

#endif
