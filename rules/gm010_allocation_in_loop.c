/* GM010 allocation-in-loop
 *
 * Flags a GPU allocation (device, managed or pinned memory) made on every iteration of a loop,
 * directly or through a same-file function called in the loop. On an H200 a cudaMalloc+cudaFree
 * pair costs 70-140 us and cudaFree synchronises the device; when the size varies, the churn
 * also fragments device memory.
 *
 *   bad:  for (b...) { cudaMalloc(&tmp, bytes); step<<<...>>>(tmp); cudaFree(tmp); }
 *   good: cudaMalloc(&tmp, bytes); for (b...) step<<<...>>>(tmp); cudaFree(tmp);
 *
 * Across files (whole-program analysis): a function that allocates on every call, called in a
 * loop in another file, is reported at its allocation with notes at the loop and the call.
 *
 * Not raised for loops that provably run once, lazy initialisation (`if (!buf) cudaMalloc`),
 * capacity-guarded regrowth, setup loops that fill a table with one buffer per element or
 * device, stream-ordered cudaMallocAsync (the recommended fix), or the growing-concatenation
 * pattern (GM020 reports that). */
#include "model/loop_counter.h"
#include "model/patterns.h"
#include "rules/rules.h"
#include "runtime_view/join.h"

#include <stdlib.h>
#include <string.h>

extern const gm_rule gm010_allocation_in_loop;

/* The measured cost that motivates the finding (H200, CUDA 13.0; docs/rules/GM010.md), by what the
 * family's memory is (families.ini: pinned, managed). */
static const char *cost_of_family(int pinned, int managed) {
  if (pinned)
    return "on an H200 cudaMallocHost costs 0.8 ms for 256 bytes and 465 ms for 1 GiB, because "
           "it pins the pages";
  if (managed)
    return "on an H200 cudaMallocManaged costs about 10 us, and each fresh buffer's pages fault "
           "and migrate again on first touch";
  return "on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree "
         "synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered "
         "pool costs about 1 us";
}

static const char *cost_of(const gm_node *call) {
  const gm_family *fam = call->fn->family;
  return cost_of_family(fam && fam->pinned, fam && fam->managed);
}

static const char *cost_of_unit_family(const gm_unit_family *fam) {
  return cost_of_family(fam->pinned, fam->managed);
}

static int in_loop_candidate(const gm_node *call) {
  return call->kind == GM_N_CALL && call->fn &&
         (call->fn->kind == GM_FN_ALLOC || call->fn->kind == GM_FN_REALLOC) && call->fn->family &&
         call->fn->family->gpu;
}

struct free_search {
  int var;
  const gm_node *found;
  int count;
  const gm_node *loop; /* when set: frees after which the path leaves this loop do not count */
};
static void find_frees(const gm_node *n, void *arg);

/* Whether the size arguments stay the same across iterations: every argument but the
 * out-parameter and other addresses (cudaMallocPitch's &pitch, cuMemCreate's &prop). */
static int size_invariant(const gm_func *fn, const gm_node *loop, const gm_node *call) {
  for (int i = 0; i < call->nkids; i++)
    if (i != call->fn->ptr_arg && call->kids[i]->kind != GM_N_ADDR &&
        !gm_loop_invariant(fn, loop, call->kids[i]))
      return 0;
  return 1;
}

/* The innermost loop or switch around n (where a `break` in n goes). */
static const gm_node *break_target(const gm_node *n) {
  for (const gm_node *p = n->parent; p; p = p->parent)
    if (p->kind == GM_N_LOOP || p->kind == GM_N_SWITCH)
      return p;
  return NULL;
}

/* Whether a statement, once reached, leaves `loop` for good: a return, a throw, a goto, a call
 * that does not return, or a break out of `loop` itself. */
static int exits_loop(const gm_node *stmt, const gm_node *loop) {
  switch (stmt->kind) {
  case GM_N_RETURN:
  case GM_N_THROW:
  case GM_N_GOTO:
    return 1;
  case GM_N_BREAK:
    return break_target(stmt) == loop;
  case GM_N_CALL:
    return stmt->noreturn;
  default:
    return 0;
  }
}

/* Whether every path through n goes on to leave `loop`: a statement after it, in one of the
 * blocks between n and the loop, exits the loop. The cleanup of a failed setup (`for (k < j)
 * cudaFree(t[k]); return err;`) runs once, not on every iteration. */
static int leaves_loop_after(const gm_node *n, const gm_node *loop) {
  for (const gm_node *kid = n, *p = n->parent; p && kid != loop; kid = p, p = p->parent) {
    if (p->kind != GM_N_SEQ)
      continue;
    int after = 0;
    for (int i = 0; i < p->nkids; i++) {
      if (after && p->kids[i] && exits_loop(p->kids[i], loop))
        return 1;
      after |= p->kids[i] == kid;
    }
  }
  return 0;
}

/* Setup loops fill a table: `cudaMalloc(&bufs[i], ...)`, `&plan[i].buf`, `&ctx->bufs[i]`,
 * `bufs + i`, or a local then kept (`bufs[i] = p`, `bufs.push_back(p)`) give each element its own
 * buffer that outlives the loop (often one per device, after cudaSetDevice(i)). That is churn only
 * when a loop around the allocation also frees through the table; the innermost such loop is the
 * one to report. Returns the loop to report, or NULL for a setup loop. */
static const gm_node *churn_loop(const gm_func *fn, const gm_node *call, const gm_node *loop) {
  int table;
  /* a local kept in a table: setup when the loop walks devices or streams, not requests */
  if (!gm_table_slot(fn, loop, call, &table) &&
      !(gm_kept_in_table(fn, loop, call, &table) && gm_loop_selects_device(loop)))
    return loop;
  int through = gm_root_var(gm_arg(call, call->fn->ptr_arg));
  for (const gm_node *l = loop; l; l = gm_enclosing_loop(l)) {
    struct free_search frees = {table, NULL, 0, l};
    if (table >= 0)
      gm_walk(l, find_frees, &frees);
    struct free_search alias = {through, NULL, 0, l};
    if (through >= 0 && through != table)
      gm_walk(l, find_frees, &alias);
    if (frees.count || alias.count)
      return l;
  }
  return NULL;
}

/* The constant size of an allocation, when it has one; 0 otherwise. */
static long long constant_size(const gm_node *call) {
  const gm_node *size = call->fn->size_arg >= 0 ? gm_arg(call, call->fn->size_arg) : NULL;
  return size && size->has_value && size->value > 0 ? size->value : 0;
}

struct caller_ctx {
  const char *usr;
  int into_member;       /* the allocation is stored into a member of the object called on */
  int out_param;         /* the parameter the allocation is stored through, or -1 */
  const gm_func *caller; /* the function being searched */
  const gm_node *call;   /* a call to the function, inside a loop of its caller */
  const gm_node *loop;
};

/* Whether an allocation stores its pointer into a member of the object its function was called
 * on (`cudaMalloc(&ptr, n)` or `&this->ptr` in a member function). */
static int stores_into_member(const gm_node *call) {
  const gm_node *arg = call->fn->ptr_arg >= 0 ? gm_arg(call, call->fn->ptr_arg) : NULL;
  arg = gm_strip(arg);
  const gm_node *lv = arg && arg->kind == GM_N_ADDR ? gm_kid(arg, 0) : NULL;
  if (!lv || lv->kind != GM_N_FIELD)
    return 0;
  const gm_node *base = gm_kid(lv, 0);
  return !base || (base->kind == GM_N_CONST && !base->has_value); /* implicit this, or this-> */
}

/* The parameter through which an allocation hands its pointer out (`cudaMalloc(out, n)`,
 * `cudaMalloc(&s->buf, n)`, `cudaMalloc(&ref, n)`), or -1. */
static int out_param_of(const gm_func *fn, const gm_node *call) {
  const gm_node *arg = call->fn->ptr_arg >= 0 ? gm_arg(call, call->fn->ptr_arg) : NULL;
  arg = gm_strip(arg);
  if (!arg)
    return -1;
  const gm_node *lv = arg->kind == GM_N_ADDR ? gm_kid(arg, 0) : arg;
  int var = gm_root_var(lv);
  if (var < 0 || fn->vars[var].param_index < 0)
    return -1;
  if (arg->kind == GM_N_ADDR && lv && lv->kind == GM_N_VAR && fn->vars[var].kind != GM_VAR_REF)
    return -1; /* &p of a by-value parameter: a local copy */
  return fn->vars[var].param_index;
}

struct slot_store {
  const gm_func *fn;
  const gm_node *loop;
  int var;
  int found;
};

static void find_slot_store(const gm_node *n, void *arg) {
  struct slot_store *s = arg;
  int table;
  if (n->kind == GM_N_ASSIGN && !n->op && gm_root_var(n->kids[1]) == s->var &&
      n->kids[1]->kind != GM_N_INDEX && gm_element_slot(s->fn, s->loop, n->kids[0], &table))
    s->found = 1;
}

/* Whether a call in a loop receives the allocation for a different table element on each
 * iteration: `make(&bufs[i])`, `make(bufs + i)`, or `make(&buf); ...; bufs[i] = buf;`. */
static int fills_slot(const gm_func *caller, const gm_node *loop, const gm_node *call, int param) {
  const gm_node *arg = param >= 0 && param < call->nkids ? call->kids[param] : NULL;
  arg = gm_strip(arg);
  int table;
  if (!arg)
    return 0;
  if (arg->kind != GM_N_ADDR)
    return gm_address_stride(loop, arg) == 1;
  const gm_node *lv = gm_kid(arg, 0);
  if (gm_element_slot(caller, loop, lv, &table))
    return 1;
  if (!lv || lv->kind != GM_N_VAR || lv->var < 0)
    return 0;
  struct slot_store st = {caller, loop, lv->var, 0};
  gm_walk(loop, find_slot_store, &st);
  return st.found;
}

static void find_call_in_loop(const gm_node *n, void *arg) {
  struct caller_ctx *c = arg;
  if (c->call || n->kind != GM_N_CALL || !n->callee_usr || strcmp(n->callee_usr, c->usr) != 0)
    return;
  gm_exemption why;
  const gm_node *loop = gm_repeating_loop(c->caller, n, gm_enclosing_loop(n), &why);
  int table;
  if (!loop)
    return;
  if (c->into_member && n->callee_member &&
      gm_element_slot(c->caller, loop, n->callee_member, &table))
    return; /* bufs[dev].alloc(n): each iteration fills another object's member, setup */
  if (c->out_param >= 0 && fills_slot(c->caller, loop, n, c->out_param))
    return; /* make(&bufs[dev], n): the same, through an out-parameter */
  c->call = n;
  c->loop = loop;
}

struct visit_ctx {
  const gm_check_ctx *ctx;
};

static void find_frees(const gm_node *n, void *arg) {
  struct free_search *f = arg;
  if (n->kind == GM_N_CALL && n->fn && n->fn->kind == GM_FN_FREE &&
      gm_root_var(gm_arg(n, n->fn->ptr_arg)) == f->var &&
      !(f->loop && leaves_loop_after(n, f->loop))) {
    f->found = n;
    f->count++;
  }
}

static void count_stores(const gm_node *n, void *arg) {
  struct free_search *f = arg;
  if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_DECL) &&
      ((n->kind == GM_N_DECL && n->var == f->var) ||
       (n->kind != GM_N_DECL && n->kids[0]->kind == GM_N_VAR && n->kids[0]->var == f->var)))
    f->count++;
}

/* Whether e reads a variable the loop sets: a size computed in the loop's body from invariant
 * values (`size_t bytes = n * 4;`) is invariant, but its declaration cannot move with the call. */
static int reads_loop_local(const gm_node *e, const gm_node *loop) {
  if (!e)
    return 0;
  if (e->kind == GM_N_VAR && e->var >= 0 && loop->modified[e->var])
    return 1;
  for (int i = 0; i < e->nkids; i++)
    if (reads_loop_local(e->kids[i], loop))
      return 1;
  return 0;
}

/* Whether the size arguments (as in size_invariant) read a variable the loop sets. */
static int size_reads_loop_local(const gm_node *call, const gm_node *loop) {
  for (int i = 0; i < call->nkids; i++)
    if (i != call->fn->ptr_arg && call->kids[i]->kind != GM_N_ADDR &&
        reads_loop_local(call->kids[i], loop))
      return 1;
  return 0;
}

/* Appends the lines [b, e) of the source, re-indented to `indent`. */
static void append_reindented(gm_strbuf *sb, const gm_source *src, unsigned b, unsigned e,
                              const char *indent) {
  while (b < e) {
    unsigned line_end = b;
    while (line_end < e && src->text[line_end] != '\n')
      line_end++;
    unsigned text = b;
    while (text < line_end && (src->text[text] == ' ' || src->text[text] == '\t'))
      text++;
    gm_sb_append(sb, indent);
    gm_sb_appendn(sb, src->text + text, line_end - text);
    gm_sb_append(sb, "\n");
    b = line_end + 1;
  }
}

/* The hoisting fix for a loop-invariant allocation: move its statement before the loop and its
 * free after it. Offered only when that is plainly the same program: one allocation statement
 * and one free statement directly in the loop's block, each on lines of its own, the pointer
 * declared outside the loop and not otherwise assigned in it. */
static void add_hoist_fix(const gm_check_ctx *ctx, gm_finding *f, const gm_node *call,
                          const gm_node *loop) {
  const gm_node *body = loop->kids[3];
  const gm_source *src = ctx->source;
  if (!src || !body || body->kind != GM_N_SEQ || loop->in_macro || !call->loc.file)
    return;
  int var = gm_alloc_target_var(call);
  if (var < 0)
    return;
  struct free_search frees = {var, NULL, 0, NULL};
  gm_walk(body, find_frees, &frees);
  struct free_search stores = {var, NULL, 0, NULL};
  gm_walk(loop, count_stores, &stores);
  if (frees.count != 1 || stores.count != 0 || size_reads_loop_local(call, loop))
    return;
  const gm_node *alloc_stmt = gm_statement_in(call, body);
  const gm_node *free_stmt = gm_statement_in(frees.found, body);
  if (!alloc_stmt || !free_stmt || alloc_stmt == free_stmt ||
      alloc_stmt->offset > free_stmt->offset)
    return;
  unsigned ab, ae, fb, fe;
  if (!gm_whole_lines(src, alloc_stmt, &ab, &ae) || !gm_whole_lines(src, free_stmt, &fb, &fe))
    return;
  /* before the loop's first line, after its last line */
  unsigned loop_line = loop->offset, loop_end_line = loop->end_offset;
  while (loop_line > 0 && src->text[loop_line - 1] != '\n')
    loop_line--;
  while (loop_end_line < src->len && src->text[loop_end_line] != '\n')
    loop_end_line++;
  if (loop_end_line < src->len)
    loop_end_line++;
  char *indent = gm_line_indent(src, loop->offset);
  gm_strbuf before = {0}, after = {0};
  append_reindented(&before, src, ab, ae, indent);
  append_reindented(&after, src, fb, fe, indent);
  const char *file = call->loc.file;
  gm_finding_fix(f, file, loop_line, 0, before.data);
  gm_finding_fix(f, file, ab, ae - ab, "");
  gm_finding_fix(f, file, fb, fe - fb, "");
  gm_finding_fix(f, file, loop_end_line, 0, after.data);
  free(before.data);
  free(after.data);
  free(indent);
}

/* How a loop reaches the function holding an allocation: a loop in some function calls
 * via_fn[depth - 1] (or the function itself when depth is 0), which calls via_fn[depth - 2] at
 * via_call[depth - 1], and so on down to the function. */
struct reach {
  const gm_node *call, *loop; /* the call in the loop */
  const gm_func *via_fn[GM_CALL_DEPTH_LIMIT];
  const gm_node *via_call[GM_CALL_DEPTH_LIMIT];
  int depth;
  unsigned char *explored; /* per function of the file: its callers were searched already */
};

static int on_chain(const struct reach *r, int depth, const gm_func *g) {
  for (int i = 0; i < depth; i++)
    if (r->via_fn[i] == g)
      return 1;
  return 0;
}

/* Whether a loop of the file calls `usr`, directly or through up to call-depth callers
 * (a call on the way may be conditional: `if (sm5) helper();` still allocates on the iterations
 * that take it). */
static int reached_from_loop(const gm_check_ctx *ctx, const char *usr, int into_member,
                             int out_param, int depth, long long max_depth, struct reach *r) {
  struct caller_ctx c = {usr, depth == 0 && into_member, depth == 0 ? out_param : -1, NULL, NULL,
                         NULL};
  size_t ncalls;
  const gm_call_site *calls = gm_calls_to(ctx->tu, usr, &ncalls);
  for (size_t k = 0; k < ncalls && !c.call; k++) {
    const gm_func *g = ctx->tu->funcs[calls[k].func];
    if (g != ctx->fn && !on_chain(r, depth, g)) {
      c.caller = g;
      find_call_in_loop(calls[k].call, &c);
    }
  }
  if (c.call) {
    r->call = c.call;
    r->loop = c.loop;
    r->depth = depth;
    return 1;
  }
  if (depth >= max_depth)
    return 0;
  for (size_t k = 0; k < ncalls; k++) { /* each caller once, at its first unguarded call */
    int i = calls[k].func;
    const gm_func *g = ctx->tu->funcs[i];
    if (g == ctx->fn || !g->usr || !g->body || g->is_kernel || g->is_device || r->explored[i])
      continue;
    if (gm_alloc_guarded(g, calls[k].call, NULL))
      continue; /* a call under a once-only guard runs once, whoever loops */
    r->explored[i] = 1;
    r->via_fn[depth] = g;
    r->via_call[depth] = calls[k].call;
    if (reached_from_loop(ctx, g->usr, into_member, out_param, depth + 1, max_depth, r))
      return 1;
  }
  return 0;
}

/* Whether an allocation plainly churns on each call of its function: the buffer is freed again
 * in the function, or stored into a global whose previous block it overwrites. */
static int churns_per_call(const gm_func *fn, const gm_node *call) {
  int var = gm_alloc_target_var(call);
  if (var < 0)
    return 0;
  const gm_node *arg = call->fn->ptr_arg >= 0 ? gm_arg(call, call->fn->ptr_arg) : NULL;
  arg = gm_strip(arg);
  const gm_node *target = arg && arg->kind == GM_N_ADDR ? gm_kid(arg, 0) : NULL;
  if (fn->vars[var].kind == GM_VAR_GLOBAL)
    return target && target->kind == GM_N_VAR; /* g_buf itself, not d_hash[thr_id] */
  struct free_search frees = {var, NULL, 0, NULL};
  gm_walk(fn->body, find_frees, &frees);
  return fn->vars[var].kind == GM_VAR_LOCAL && frees.count;
}

/* An allocation outside the function's own loops: is the function called in a loop, directly
 * or through other functions of the file? Past the direct caller only plain churn is reported
 * (a chain can as well be per-device setup). */
static void report_from_callers(const gm_check_ctx *ctx, const gm_node *call) {
  if (gm_alloc_guarded(ctx->fn, call, NULL))
    return; /* if (!buf) cudaMalloc(&buf, ..): made once, whoever calls */
  struct reach r = {0};
  size_t nfuncs = (size_t)ctx->tu->nfuncs + 1;
  r.explored = gm_xcalloc(nfuncs, 1);
  long long max_depth = gm_threshold(ctx->fn->limits, GM_T_CALL_DEPTH);
  int into_member = stores_into_member(call), out_param = out_param_of(ctx->fn, call);
  int reached = reached_from_loop(ctx, ctx->fn->usr, into_member, out_param, 0, max_depth, &r);
  int beyond = 0; /* reached only through more calls than call-depth follows */
  if (!reached && max_depth < GM_CALL_DEPTH_LIMIT) {
    memset(r.explored, 0, nfuncs);
    beyond =
        reached_from_loop(ctx, ctx->fn->usr, into_member, out_param, 0, GM_CALL_DEPTH_LIMIT, &r);
  }
  free(r.explored);
  const char *what = gm_call_display_name(call);
  const char *looped = r.depth ? r.via_fn[r.depth - 1]->name : ctx->fn->name;
  if (beyond && churns_per_call(ctx->fn, call))
    gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, "call-depth", call->loc,
                         ctx->fn->name,
                         "%s in '%s' is reached from a loop that calls '%s' with %d functions "
                         "in between, more than the call-depth threshold (%lld)",
                         what, ctx->fn->name, looped, r.depth, max_depth);
  if (!reached)
    return;
  gm_finding *f;
  if (!r.depth)
    f = gm_report_add(ctx->report, &gm010_allocation_in_loop, call->loc, ctx->fn->name,
                      "%s in '%s' runs on every iteration of a loop that calls '%s'; %s. Allocate "
                      "once outside the loop and pass the buffer in, or use cudaMallocAsync from "
                      "a memory pool",
                      what, ctx->fn->name, ctx->fn->name, cost_of(call));
  else if (churns_per_call(ctx->fn, call))
    f = gm_report_add(ctx->report, &gm010_allocation_in_loop, call->loc, ctx->fn->name,
                      "%s in '%s' runs each time '%s' is called, and a loop calls '%s', which "
                      "reaches '%s' (on the iterations where the calls on the way run); %s. "
                      "Allocate once outside the loop and pass the buffer in, or use "
                      "cudaMallocAsync from a memory pool",
                      what, ctx->fn->name, ctx->fn->name, looped, ctx->fn->name, cost_of(call));
  else
    return;
  gm_finding_note(f, r.call->loc, "'%s' is called in a loop here", looped);
  for (int i = r.depth - 1; i >= 0; i--)
    gm_finding_note(f, r.via_call[i]->loc, "'%s' calls '%s' here", r.via_fn[i]->name,
                    i ? r.via_fn[i - 1]->name : ctx->fn->name);
}

static void visit(const gm_node *call, void *arg) {
  const gm_check_ctx *ctx = ((struct visit_ctx *)arg)->ctx;
  if (!in_loop_candidate(call))
    return;
  const gm_node *loop = gm_enclosing_loop(call);
  const char *what = gm_call_display_name(call);
  if (!loop) {
    const gm_node *few = gm_few_trips_loop(call);
    if (few)
      gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, "few-trips", call->loc,
                           ctx->fn->name,
                           "%s in a loop known to run %d times, no more than the few-trips "
                           "threshold (%lld): setup, not a step",
                           what, few->trips, gm_threshold(ctx->fn->limits, GM_T_FEW_TRIPS));
    report_from_callers(ctx, call);
    return;
  }
  gm_exemption why;
  const gm_node *innermost = loop;
  const gm_node *inner = gm_repeating_loop(ctx->fn, call, loop, &why);
  if (!inner) { /* why: retried, lazy, capacity-guarded, once per counter, grown geometrically */
    gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, gm_exemption_id(why), call->loc,
                         ctx->fn->name, "%s in a loop: %s", what, gm_exemption_reason(why));
    return;
  }
  if (!(loop = churn_loop(ctx->fn, call, inner))) {
    /* per-element buffers no larger than small-slot-bytes, one per element of data, are a
     * table one allocation would hold (each cudaMalloc pays its fixed cost and rounds up) */
    long long bytes = constant_size(call), devices;
    long long slot_limit = gm_threshold(ctx->fn->limits, GM_T_SMALL_SLOT_BYTES);
    if (bytes > slot_limit) {
      gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, "small-slot-bytes", call->loc,
                           ctx->fn->name,
                           "%s in a loop gives each element %lld bytes, more than the "
                           "small-slot-bytes threshold (%lld): each is worth its own allocation",
                           what, bytes, slot_limit);
      return;
    }
    if (bytes && gm_loop_constant_device_bound(ctx->fn, inner, &devices)) {
      gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, "device-count", call->loc,
                           ctx->fn->name,
                           "%s in a loop bounded by %lld, no more than the device-count "
                           "threshold (%lld): one buffer per device",
                           what, devices, gm_threshold(ctx->fn->limits, GM_T_DEVICE_COUNT));
      return;
    }
    if (!bytes || !gm_loop_over_data(ctx->fn, inner)) {
      /* setup: one buffer per device, stream or element of a size not known when compiled */
      gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, "setup-loop", call->loc,
                           ctx->fn->name,
                           "%s in a loop that sets up one buffer per device, stream or large "
                           "element, not per element of data",
                           what);
      return;
    }
    gm_finding *f = gm_report_add(
        ctx->report, &gm010_allocation_in_loop, call->loc, ctx->fn->name,
        "%s gives each element of this loop its own %lld-byte buffer, one allocation per "
        "element of data rather than per device or stream; %s. Allocate one buffer for all "
        "the elements and point each element at its slice",
        what, bytes, cost_of(call));
    gm_finding_note(f, inner->loc, "the loop");
    return;
  }
  gm_exemption outer = loop != inner ? gm_loop_exemption(ctx->fn, call, loop) : GM_EXEMPT_NONE;
  if (outer) {
    gm_report_suppressed(ctx->report, &gm010_allocation_in_loop, gm_exemption_id(outer), call->loc,
                         ctx->fn->name, "%s in a loop: %s", what, gm_exemption_reason(outer));
    return;
  }
  const gm_node *copy, *free_call;
  gm_exemption regrowth;
  if (gm_growing_concat(ctx->fn, call, loop, &copy, &free_call, &regrowth))
    return; /* GM020's finding */
  gm_finding *f;
  if (size_invariant(ctx->fn, loop, call)) {
    f = gm_report_add(ctx->report, &gm010_allocation_in_loop, call->loc, ctx->fn->name,
                      "%s runs on every iteration of this loop with a loop-invariant size; %s. "
                      "Hoist it: allocate once before the loop and free once after it",
                      what, cost_of(call));
    if (loop == innermost)
      add_hoist_fix(ctx, f, call, loop); /* from an outer loop it would move the inner one */
  } else {
    f = gm_report_add(ctx->report, &gm010_allocation_in_loop, call->loc, ctx->fn->name,
                      "%s runs on every iteration of this loop and its size varies, which also "
                      "fragments device memory; %s. Allocate the largest size once before the "
                      "loop, or use cudaMallocAsync from a stream-ordered memory pool",
                      what, cost_of(call));
  }
  gm_finding_note(f, loop->loc, "the loop");
}

static void check(const gm_check_ctx *ctx) {
  if (ctx->fn->is_kernel || ctx->fn->is_device)
    return;
  struct visit_ctx v = {ctx};
  gm_walk(ctx->fn->body, visit, &v);
}

/* Whether a loop's call to a function that allocates fills a table: the allocation leaves through
 * an out-parameter that reaches a different element on each iteration (`make(&bufs[i])`), or is
 * returned and stored in one (`bufs[i] = make()`). Setup, not churn, unless the function frees
 * it again before returning. */
static int fills_table(const gm_unit_loop_call *c, const gm_unit_alloc *a) {
  if (a->freed)
    return 0;
  if (a->out_param >= 0 && a->out_param < 31 && (c->per_element >> a->out_param & 1u))
    return 1;
  return a->returned && (c->per_element & GM_UNIT_RESULT_PER_ELEMENT);
}

enum { MAX_CALL_NOTES = 3 };

/* One cross-file finding per allocation site, however many loops reach it. */
/* The finding is kept as its report and index: a later finding added to that report may move
 * the findings, so a pointer to one would not last. */
struct reported {
  const gm_unit_alloc *alloc;
  gm_report *report; /* NULL: nothing was reported for it */
  size_t index;
  int notes;
};

struct chain {
  const gm_program_ctx *ctx;
  const gm_unit_loop_call *loop_call;
  long long max_depth;                               /* call-depth, as the loop's file sets it */
  const gm_unit_func *path[GM_CALL_DEPTH_LIMIT + 1]; /* the loop's callee, then what it calls */
  const gm_unit_call *via[GM_CALL_DEPTH_LIMIT + 1];  /* the call from path[i - 1] to path[i] */
  size_t units[GM_CALL_DEPTH_LIMIT + 1];
  GM_VEC(struct reported) done;
};

/* Whether a call on the chain down to path[depth] is made under a condition. */
static int conditional_chain(const struct chain *ch, int depth) {
  for (int i = 1; i <= depth; i++)
    if (ch->via[i]->conditional)
      return 1;
  return 0;
}

static void report_alloc(struct chain *ch, int depth, const gm_unit_alloc *a) {
  const gm_unit_func *fn = ch->path[depth];
  const gm_unit_loop_call *c = ch->loop_call;
  struct reported *r = NULL;
  for (size_t i = 0; i < ch->done.len; i++)
    if (ch->done.items[i].alloc == a)
      r = &ch->done.items[i];
  if (r && (r->notes >= MAX_CALL_NOTES || !r->report))
    return;
  if (!r) {
    gm_report *rep = ch->ctx->report_for(ch->ctx->arg, ch->units[depth], &gm010_allocation_in_loop);
    gm_finding *f = NULL;
    if (rep && depth == 0)
      f = gm_report_add(rep, &gm010_allocation_in_loop, a->loc, fn->name,
                        "%s in '%s' runs on every call, and '%s' is called in a loop in %s; %s. "
                        "Allocate once outside the loop and pass the buffer in, or use "
                        "cudaMallocAsync from a memory pool",
                        a->api, fn->name, fn->name, c->call.file, cost_of_unit_family(&a->family));
    else if (rep && !conditional_chain(ch, depth))
      f = gm_report_add(rep, &gm010_allocation_in_loop, a->loc, fn->name,
                        "%s in '%s' runs on every call, and '%s' is reached on every iteration of "
                        "a loop in %s (through '%s'); %s. Allocate once outside the loop and pass "
                        "the buffer in, or use cudaMallocAsync from a memory pool",
                        a->api, fn->name, fn->name, c->call.file, ch->path[0]->name,
                        cost_of_unit_family(&a->family));
    else if (rep)
      f = gm_report_add(rep, &gm010_allocation_in_loop, a->loc, fn->name,
                        "%s in '%s' runs on every call, and '%s' is reached from a loop in %s "
                        "(through '%s', on the iterations where the calls on the way run); %s. "
                        "Allocate once outside the loop and pass the buffer in, or use "
                        "cudaMallocAsync from a memory pool",
                        a->api, fn->name, fn->name, c->call.file, ch->path[0]->name,
                        cost_of_unit_family(&a->family));
    GM_PUSH(ch->done, ((struct reported){a, f ? rep : NULL, f ? rep->findings.len - 1 : 0, 0}));
    r = &ch->done.items[ch->done.len - 1];
    if (!f)
      return;
  }
  gm_finding *finding = &r->report->findings.items[r->index];
  gm_finding_note(finding, c->call, "'%s' is called in a loop here, in '%s'", ch->path[0]->name,
                  c->caller);
  gm_finding_note(finding, c->loop, "the loop");
  for (int i = 1; i <= depth && r->notes == 0; i++)
    gm_finding_note(finding, ch->via[i]->loc,
                    ch->via[i]->conditional ? "'%s' calls '%s' here, under a condition"
                                            : "'%s' calls '%s' on every call",
                    ch->path[i - 1]->name, ch->path[i]->name);
  r->notes++;
}

/* The allocations path[depth] makes on every call, then those of what it calls on every call. */
static void follow(struct chain *ch, int depth) {
  const gm_unit_func *fn = ch->path[depth];
  for (size_t i = 0; i < fn->per_call.len; i++) {
    const gm_unit_alloc *a = &fn->per_call.items[i];
    /* deeper down, only churn is plain: memory allocated and freed within the call, or
     * overwriting a global's previous block */
    if (a->family.gpu && (depth ? a->freed || a->global : !fills_table(ch->loop_call, a)))
      report_alloc(ch, depth, a);
  }
  if (depth >= ch->max_depth)
    return;
  for (size_t i = 0; i < fn->calls.len; i++) {
    size_t unit;
    const gm_unit_func *next =
        gm_program_function(ch->ctx->program, fn->calls.items[i].usr, GM_ANY_UNIT, &unit);
    int seen = 0;
    for (int k = 0; k <= depth; k++)
      seen |= ch->path[k] == next;
    if (!next || seen)
      continue;
    ch->path[depth + 1] = next;
    ch->via[depth + 1] = &fn->calls.items[i];
    ch->units[depth + 1] = unit;
    follow(ch, depth + 1);
  }
}

/* A function in one file that allocates on every call (itself, or through what it calls on every
 * call), called in a loop in another. */
static void check_program(const gm_program_ctx *ctx) {
  const gm_program *p = ctx->program;
  struct chain ch = {.ctx = ctx};
  for (size_t cu = 0; cu < p->nunits; cu++) {
    const gm_unit *caller = p->units[cu];
    for (size_t ci = 0; caller && ci < caller->loop_calls.len; ci++) {
      const gm_unit_loop_call *c = &caller->loop_calls.items[ci];
      size_t fu;
      const gm_unit_func *fn = gm_program_function(p, c->usr, cu, &fu);
      if (!fn)
        continue;
      ch.loop_call = c;
      ch.max_depth = gm_threshold(ctx->limits_for(ctx->arg, cu), GM_T_CALL_DEPTH);
      ch.path[0] = fn;
      ch.units[0] = fu;
      follow(&ch, 0);
    }
  }
  GM_VEC_FREE(ch.done);
}

/* Runtime verdict (docs/rules/GM010.md): confirmed when the site ran at least
 * gm010-confirm-calls times in the telemetry (all files together); dismissed when it ran fewer
 * times. */
static gm_verdict judge(gm_judge_ctx *c) {
  long long confirm_calls = gm_threshold(c->limits, GM_T_GM010_CONFIRM_CALLS);
  const gm_tsite *s = gm_judge_find(c, c->finding->loc, GM_SITE_ALLOC);
  if (!gm_site_ran(s))
    return gm_judge_unseen(c, s, c->finding->loc, "allocation");
  c->site = s;
  uint64_t made = s->calls + s->failed_calls;
  char sizes[128];
  if (s->bytes_min == s->bytes_max)
    snprintf(sizes, sizeof sizes, "all of %s", gm_bytes(s->bytes_min).s);
  else
    snprintf(sizes, sizeof sizes, "%s%zu distinct sizes from %s to %s",
             s->sizes_truncated ? "more than " : "", s->sizes.len, gm_bytes(s->bytes_min).s,
             gm_bytes(s->bytes_max).s);
  if (s->calls < (uint64_t)confirm_calls)
    return gm_judge_say(c, GM_VERDICT_DISMISSED,
                        "ran only %llu %s (%s); the loop did not churn (threshold: %lld calls)",
                        (unsigned long long)s->calls, gm_plural(s->calls, "time", "times"), sizes,
                        confirm_calls);
  char *frees = gm_site_frees_text(s);
  gm_verdict v = gm_judge_say(
      c, GM_VERDICT_CONFIRMED,
      "%llu calls (threshold: %lld), %s, %s in the allocation per call (%s in all), frees by API: "
      "%s",
      (unsigned long long)s->calls, confirm_calls, sizes,
      gm_duration_ns(made ? s->alloc_ns / made : 0).s, gm_duration_ns(s->alloc_ns).s, frees);
  free(frees);
  return v;
}

const gm_rule gm010_allocation_in_loop = {
    .id = "GM010",
    .name = "allocation-in-loop",
    .summary = "A GPU allocation runs on every iteration of a loop.",
    .description =
        "A cudaMalloc, cudaMallocManaged, cudaMallocHost or driver-API allocation runs on every "
        "iteration of a loop (or in a function called in one). On an H200 a cudaMalloc+cudaFree "
        "pair costs about 70-140 us and cudaFree synchronises the whole device; when the size "
        "varies from one iteration to the next the churn also fragments device memory until a "
        "large allocation fails with memory to spare.",
    .fix = "Allocate once before the loop (the largest size when it varies) and free once after "
           "it, or allocate with cudaMallocAsync/cudaFreeAsync from a stream-ordered memory pool.",
    .check = check,
    .check_program = check_program,
    .judge = judge,
};
