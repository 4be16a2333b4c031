/* The flow engine's entry: summarises the TU's functions to a fixed point, then runs each
 * main-file function that allocates or frees from its entry state and collects its facts. */
#include "flow/flow.h"

#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

/* ---- driving one function ---- */

/* Locals whose address reaches code we do not model (so their value may change behind our back).
 * An address handed to a table function (cudaMalloc(&p), cudaMemcpy(&x, ...)) does not count:
 * what those calls do with it is modelled; nor does one handed to a helper whose summary (this
 * file's or another's) allocates or frees through it or only reads it. */
static void mark_addr_taken(engine *e, const gm_node *n) {
  if (!n)
    return;
  int known_call = n->kind == GM_N_CALL && (n->fn || n->is_launch || gm_call_borrows(n));
  const summary *sum =
      n->kind == GM_N_CALL && !known_call && !n->fn ? flow_summary_for(e, n->callee_usr) : NULL;
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *k = n->kids[i];
    if (k && k->kind == GM_N_ADDR && gm_kid(k, 0) && k->kids[0]->kind == GM_N_VAR) {
      int modelled = sum && i < sum->nparams && sum->params[i].effect != P_ESCAPES;
      if (!known_call && !modelled)
        e->addr_taken[k->kids[0]->var] = 1;
      continue;
    }
    if (k && n->kind == GM_N_LAMBDA && k->kind == GM_N_VAR)
      e->addr_taken[k->var] = 1;
    mark_addr_taken(e, k);
  }
}

static int allocates_or_frees(engine *e, const gm_node *n);

/* What a condition reads: its variables are guards; a member, pointee or element makes every
 * path slot one. */
static void mark_guards_read(engine *e, const gm_node *n) {
  if (!n)
    return;
  if (n->kind == GM_N_VAR && n->var >= 0 && n->var < e->fn->nvars)
    e->guards[n->var] = 1;
  if (n->kind == GM_N_FIELD || n->kind == GM_N_DEREF || n->kind == GM_N_INDEX)
    e->guard_paths = 1;
  for (int i = 0; i < n->nkids; i++)
    mark_guards_read(e, n->kids[i]);
}

/* The scalars whose values may decide a memory operation: those read by the condition of a
 * branch, loop or switch (or the left side of && and ||) with an allocation or a free in it or
 * under it. Paths that differ only in other scalars may be joined (state.c). */
static void find_memory_guards(engine *e, const gm_node *n) {
  if (!n)
    return;
  const gm_node *cond = n->kind == GM_N_IF || n->kind == GM_N_COND || n->kind == GM_N_SWITCH
                            ? gm_kid(n, 0)
                        : n->kind == GM_N_LOOP                        ? gm_kid(n, 1)
                        : n->kind == GM_N_LAND || n->kind == GM_N_LOR ? gm_kid(n, 0)
                                                                      : NULL;
  if (cond && allocates_or_frees(e, n))
    mark_guards_read(e, cond);
  for (int i = 0; i < n->nkids; i++)
    find_memory_guards(e, n->kids[i]);
}

/* Variables assigned (or incremented, decremented) anywhere in n. */
static void mark_assigned(engine *e, const gm_node *n) {
  if (!n)
    return;
  const gm_node *lhs = n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC ? gm_kid(n, 0) : NULL;
  if (lhs && lhs->kind == GM_N_VAR && lhs->var >= 0 && lhs->var < e->fn->nvars)
    e->assigned[lhs->var] = 1;
  for (int i = 0; i < n->nkids; i++)
    mark_assigned(e, n->kids[i]);
}

void flow_run_function(engine *e, const gm_func *fn) {
  e->fn = fn;
  e->steps = 0;
  e->truncated = 0;
  flow_find_retested(e, fn->body);
  e->addr_taken = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  e->array_init = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), sizeof(gm_node *));
  mark_addr_taken(e, fn->body);
  e->assigned = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  mark_assigned(e, fn->body);
  e->used_otherwise = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  flow_mark_object_uses(e);
  e->aggregate = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  flow_find_local_aggregates(e);
  e->guards = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  e->guard_paths = 0;
  find_memory_guards(e, fn->body);
  e->guard_bits = e->guard_paths ? MEMORY_DEP | GLOBAL_DEP : 0;
  for (int v = 0; v < fn->nvars; v++)
    if (e->guards[v])
      e->guard_bits |= slot_bit(e, v);
  state *s = flow_state_new();
  for (int v = 0; v < fn->nvars; v++) {
    const gm_var *var = &fn->vars[v];
    if (var->param_index < 0 || !var->is_handle)
      continue;
    obj o = {0};
    o.param = var->param_index;
    o.deref_param = -1;
    o.state = OBJ_LIVE; /* the caller owns it: no site, so never reported as a leak */
    o.owner = var->name;
    int id = flow_obj_new(s, o);
    flow_slot_set_raw(s, v, mk(V_OBJ, id));
    if (var->is_pointer_to_pointer && e->summary_mode) {
      /* `T **pp`: what *pp holds is the caller's too; a helper may free it through pp */
      obj pointee = {0};
      pointee.param = -1;
      pointee.deref_param = var->param_index;
      pointee.state = OBJ_LIVE;
      flow_slot_set_raw(s, flow_path_slot(e, gm_xasprintf("*v%d", v)),
                        mk(V_OBJ, flow_obj_new(s, pointee)));
    }
  }
  e->anchors.len = 0;
  if (!e->summary_mode)
    flow_seed_entry_members(e, s);
  else
    flow_seed_this_members(e, s); /* which members of this it frees (a destructor's teardown) */
  flow_seed_filled_members(e, s);
  state_list in = {0};
  GM_PUSH(in, s);
  flow_out out = {0};
  flow_exec(e, &in, fn->body, &out);
  gm_node end = {0};
  end.kind = GM_N_NOP;
  end.loc = fn->end_loc;
  gm_node *end_node = gm_arena_alloc(e->tu->arena, sizeof end);
  *end_node = end;
  for (size_t i = 0; i < out.next.len; i++) {
    state *st = out.next.items[i];
    if (e->summary_mode)
      flow_observe_exit(e, st, mk(V_UNKNOWN, 0));
    else
      flow_check_exit(e, st, end_node, GM_EXIT_END);
  }
  flow_list_free(&out.next);
  flow_list_free(&out.brk);
  flow_list_free(&out.cont);
  for (size_t i = 0; i < e->gotos.len; i++)
    flow_state_free(e->gotos.items[i].st);
  e->gotos.len = 0;
  for (size_t i = 0; i < e->paths.len; i++)
    free(e->paths.items[i]);
  e->paths.len = 0;
  free(e->addr_taken);
  e->addr_taken = NULL;
  free(e->assigned);
  e->assigned = NULL;
  free(e->used_otherwise);
  e->used_otherwise = NULL;
  free(e->aggregate);
  e->aggregate = NULL;
  free(e->guards);
  e->guards = NULL;
  free(e->array_init);
  e->array_init = NULL;
}

/* Whether anything under n allocates or frees: a table call, or a same-file function whose
 * summary does. A function with neither can yield no fact. */
static int allocates_or_frees(engine *e, const gm_node *n) {
  if (!n)
    return 0;
  if (n->kind == GM_N_CALL) {
    const gm_fn *row = n->fn;
    if (row && (row->kind == GM_FN_ALLOC || row->kind == GM_FN_REALLOC || row->kind == GM_FN_FREE))
      return 1;
    const summary *sum = row ? NULL : flow_summary_for(e, n->callee_usr);
    if (sum && (sum->returns_fresh || sum->nmembers))
      return 1;
    if (n->implicit_dtor && flow_destructor_frees(e, n->callee_usr))
      return 1;
    for (int i = 0; i < n->nkids; i++)
      if (n->kids[i] && n->kids[i]->copy_dtor && flow_destructor_frees(e, n->kids[i]->copy_dtor))
        return 1;
    for (int i = 0; sum && i < sum->nparams; i++)
      if (sum->params[i].effect == P_FREES || sum->params[i].effect == P_OUT_ALLOC ||
          sum->params[i].effect == P_FREES_DEREF)
        return 1;
  }
  for (int i = 0; i < n->nkids; i++)
    if (allocates_or_frees(e, n->kids[i]))
      return 1;
  return 0;
}

/* ---- summaries to a fixed point ---- */

int flow_function_of(const engine *e, const char *usr) {
  uint64_t h = gm_hash64(usr, strlen(usr), 0);
  for (size_t k = (size_t)h & e->by_usr_mask;; k = (k + 1) & e->by_usr_mask) {
    int i = e->by_usr[k];
    if (i < 0)
      return -1;
    if (e->summaries[i].usr_hash == h && strcmp(e->summaries[i].fn->usr, usr) == 0)
      return i;
  }
}

/* Fills by_usr: a later function of a USR already there is never found, as a scan in order
 * would not find it. */
static void index_functions(engine *e) {
  size_t size = 2;
  while (size < (size_t)e->nsummaries * 2)
    size *= 2;
  e->by_usr = gm_xmalloc(sizeof(int) * size);
  e->by_usr_mask = size - 1;
  for (size_t k = 0; k < size; k++)
    e->by_usr[k] = -1;
  for (int i = 0; i < e->nsummaries; i++) {
    if (flow_function_of(e, e->summaries[i].fn->usr) >= 0)
      continue;
    size_t k = (size_t)e->summaries[i].usr_hash & e->by_usr_mask;
    while (e->by_usr[k] >= 0)
      k = (k + 1) & e->by_usr_mask;
    e->by_usr[k] = i;
  }
}

/* The same-TU functions whose summaries the main file's analysis can read: a summary is read
 * only at a call (flow_summary_for, by the callee's USR, the first function of that USR), so these
 * are the main file's functions and, transitively, what they call. A file that includes a large
 * header library (CImg, thousands of functions) calls few of them. */
struct reach_ctx {
  const engine *e;
  char *reached;
  GM_VEC(int) todo;
};

static void reach_usr(struct reach_ctx *c, const char *usr) {
  int i = flow_function_of(c->e, usr);
  if (i >= 0 && !c->reached[i]) {
    c->reached[i] = 1;
    GM_PUSH(c->todo, i);
  }
}

static void reach_calls(const gm_node *n, void *arg) {
  struct reach_ctx *c = arg;
  if (n->kind != GM_N_CALL)
    return;
  if (n->callee_usr)
    reach_usr(c, n->callee_usr);
  for (int k = 0; k < n->nkids; k++)
    if (n->kids[k] && n->kids[k]->copy_dtor)
      reach_usr(c, n->kids[k]->copy_dtor); /* the by-value copy's destructor runs */
  for (int k = 0; k < n->noverloads; k++)
    reach_usr(c, n->overloads[k]);
}

/* Fills reached[] (per function); returns how many are reached. */
static int mark_reached(engine *e, char *reached) {
  struct reach_ctx c = {e, reached, {0}};
  /* what is analysed reads the summaries of what it calls: the main file's functions, and the
   * headers' that allocate or free through the table or another file's helper (before any
   * summary of this file is known, that is all allocates_or_frees can see) */
  for (int i = 0; i < e->nsummaries; i++)
    if (e->summaries[i].fn->in_main_file || allocates_or_frees(e, e->summaries[i].fn->body)) {
      reached[i] = 1;
      GM_PUSH(c.todo, i);
    }
  int count = 0;
  while (c.todo.len) {
    int i = c.todo.items[--c.todo.len];
    count++;
    gm_walk(e->summaries[i].fn->body, reach_calls, &c);
  }
  GM_VEC_FREE(c.todo);
  return count;
}

/* Whether two summaries say the same to a caller (a recursion's rounds stop when none moves). */
static int same_summary(const summary *a, const summary *b) {
  if (a->known != b->known || a->pending != b->pending || a->noreturn != b->noreturn ||
      a->returns_fresh != b->returns_fresh || a->returns_site != b->returns_site ||
      a->nparams != b->nparams || a->nmember_frees != b->nmember_frees ||
      a->nmembers != b->nmembers)
    return 0;
  for (int k = 0; k < a->nmembers; k++)
    if (a->members[k].root != b->members[k].root || a->members[k].fills != b->members[k].fills ||
        a->members[k].clobbers != b->members[k].clobbers ||
        strcmp(a->members[k].member, b->members[k].member) != 0)
      return 0;
  for (int i = 0; i < a->nparams; i++) {
    const param_summary *p = &a->params[i], *q = &b->params[i];
    if (p->effect != q->effect || p->prefetches != q->prefetches || p->launch != q->launch ||
        p->host_touch != q->host_touch || p->kernel_param != q->kernel_param ||
        p->family != q->family || p->via != q->via || p->inner != q->inner ||
        p->nulls != q->nulls || p->free_row.nfrees != q->free_row.nfrees)
      return 0;
    for (int k = 0; k < p->free_row.nfrees; k++)
      if (p->free_row.frees[k] != q->free_row.frees[k])
        return 0;
  }
  return 1;
}

/* The functions of the unit that function i calls (reached ones only), as a summary reads
 * them: by the callee's USR and by each candidate of a dependent call. */
struct callees {
  const engine *e;
  const char *reached;
  GM_VEC(int) out;
};

static void add_callee(struct callees *c, const char *usr) {
  int j = usr ? flow_function_of(c->e, usr) : -1;
  if (j >= 0 && c->reached[j])
    GM_PUSH(c->out, j);
}

static void collect_callees(const gm_node *n, void *arg) {
  struct callees *c = arg;
  if (n->kind != GM_N_CALL)
    return;
  add_callee(c, n->callee_usr);
  for (int k = 0; k < n->noverloads; k++)
    add_callee(c, n->overloads[k]);
}

/* A recursion's summaries (members[0..n), n > 1 or one that calls itself) to a fixed point from
 * the bottom: each starts pending, so a call to it ends the path until some path of it returns,
 * and each round follows every member with the others' last summaries (a walk that only reads
 * its pointer borrows it; one whose base case frees it frees it). What has not settled after
 * RECURSION_ROUNDS, or never returns but through the recursion, hands every pointer over. */
static void summarise_recursion(engine *e, const int *members, int n) {
  for (int k = 0; k < n; k++) {
    summary *sum = &e->summaries[members[k]];
    sum->known = 1;
    sum->pending = 1;
    sum->nparams = sum->fn->nparams;
    sum->params = gm_arena_alloc(e->tu->arena, sizeof(param_summary) * (size_t)(sum->nparams + 1));
  }
  int settled = 0;
  for (int round = 0; round < RECURSION_ROUNDS && !settled; round++) {
    settled = 1;
    for (int k = 0; k < n; k++) {
      summary before = e->summaries[members[k]];
      flow_summarise(e, &e->summaries[members[k]]);
      settled &= same_summary(&before, &e->summaries[members[k]]);
    }
  }
  for (int k = 0; k < n; k++) {
    summary *sum = &e->summaries[members[k]];
    if (settled && !sum->pending)
      continue;
    sum->unsettled = !settled;
    sum->pending = 0;
    sum->noreturn = 0;
    sum->returns_fresh = NULL;
    sum->returns_site = NULL;
    for (int i = 0; i < sum->nparams; i++)
      sum->params[i] = (param_summary){.effect = P_ESCAPES};
  }
}

/* Tarjan's strongly connected components of the call graph over reached functions, without
 * recursion (a generated file's call chains are deep). */
struct scc_ctx {
  engine *e;
  const char *reached;
  int *index, *low, *on_stack;
  int **edges, *nedges;
  GM_VEC(int) stack;
  int next_index;
};

static void summarise_component(struct scc_ctx *c, int root) {
  GM_VEC(int) members = {0};
  int self_call = 0;
  for (;;) {
    int j = c->stack.items[--c->stack.len];
    c->on_stack[j] = 0;
    GM_PUSH(members, j);
    if (j == root)
      break;
  }
  for (int k = 0; members.len == 1 && k < c->nedges[root]; k++)
    self_call |= c->edges[root][k] == root;
  if (members.len == 1 && !self_call)
    flow_summarise(c->e, &c->e->summaries[root]); /* its callees are all summarised */
  else
    summarise_recursion(c->e, members.items, (int)members.len);
  GM_VEC_FREE(members);
}

static void strong_connect(struct scc_ctx *c, int start) {
  struct frame {
    int fn, next;
  };
  GM_VEC(struct frame) frames = {0};
  GM_PUSH(frames, ((struct frame){start, 0}));
  c->index[start] = c->low[start] = c->next_index++;
  GM_PUSH(c->stack, start);
  c->on_stack[start] = 1;
  while (frames.len) {
    struct frame *f = &frames.items[frames.len - 1];
    int v = f->fn;
    if (f->next < c->nedges[v]) {
      int w = c->edges[v][f->next++];
      if (c->index[w] < 0) {
        c->index[w] = c->low[w] = c->next_index++;
        GM_PUSH(c->stack, w);
        c->on_stack[w] = 1;
        GM_PUSH(frames, ((struct frame){w, 0}));
      } else if (c->on_stack[w] && c->index[w] < c->low[v]) {
        c->low[v] = c->index[w];
      }
      continue;
    }
    if (c->low[v] == c->index[v])
      summarise_component(c, v); /* every component it reaches is done: callees first */
    frames.len--;
    if (frames.len) {
      int u = frames.items[frames.len - 1].fn;
      if (c->low[v] < c->low[u])
        c->low[u] = c->low[v];
    }
  }
  GM_VEC_FREE(frames);
}

/* The summaries the main file's analysis reads: those of the reached functions, callees before
 * callers, so each function is followed once with its callees' final summaries, and a recursion
 * (a strongly connected component of the call graph) is iterated on its own to a fixed point.
 * A reached function's callees are reached, so this gives what summarising all would. */
static void summarise_reached(engine *e) {
  int n = e->nsummaries;
  char *reached = gm_xcalloc((size_t)(n ? n : 1), 1);
  mark_reached(e, reached);
  struct scc_ctx c = {e, reached, NULL, NULL, NULL, NULL, NULL, {0}, 0};
  c.index = gm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
  c.low = gm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
  c.on_stack = gm_xcalloc((size_t)(n ? n : 1), sizeof(int));
  c.edges = gm_xcalloc((size_t)(n ? n : 1), sizeof(int *));
  c.nedges = gm_xcalloc((size_t)(n ? n : 1), sizeof(int));
  for (int i = 0; i < n; i++) {
    c.index[i] = -1;
    if (!reached[i])
      continue;
    struct callees cs = {e, reached, {0}};
    gm_walk(e->summaries[i].fn->body, collect_callees, &cs);
    c.edges[i] = cs.out.items;
    c.nedges[i] = (int)cs.out.len;
  }
  for (int i = 0; i < n; i++)
    if (reached[i] && c.index[i] < 0)
      strong_connect(&c, i);
  for (int i = 0; i < n; i++)
    free(c.edges[i]);
  free(c.edges);
  free(c.nedges);
  free(c.index);
  free(c.low);
  free(c.on_stack);
  GM_VEC_FREE(c.stack);
  free(reached);
}

void gm_flow_analyze(const gm_tu *tu, const gm_flow_imports *imports, gm_func_facts **out,
                     int *nout, gm_call_summary **exported, int *nexported) {
  engine e = {0};
  e.tu = tu;
  e.imports = imports;
  e.nsummaries = tu->nfuncs;
  e.summaries = gm_xcalloc((size_t)(tu->nfuncs ? tu->nfuncs : 1), sizeof(summary));
  for (int i = 0; i < tu->nfuncs; i++) {
    e.summaries[i].fn = tu->funcs[i];
    e.summaries[i].usr_hash = gm_hash64(tu->funcs[i]->usr, strlen(tu->funcs[i]->usr), 0);
  }
  index_functions(&e);
  summarise_reached(&e);
  if (exported)
    flow_export_summaries(&e, exported, nexported);
  gm_func_facts *results =
      gm_arena_alloc(tu->arena, sizeof(gm_func_facts) * (size_t)(tu->nfuncs ? tu->nfuncs : 1));
  int n = 0;
  for (int i = 0; i < tu->nfuncs; i++) {
    const gm_func *fn = tu->funcs[i];
    /* the main file's functions and those of the project's own headers and included sources
     * (system headers are never modelled): a header's findings are kept once per program by
     * the driver, and they name the includer */
    e.facts.len = 0;
    flow_leak_index_clear(&e, 0);
    if (allocates_or_frees(&e, fn->body)) /* else there is nothing to find (kernels, math) */
      flow_run_function(&e, fn);
    else
      e.truncated = 0;
    gm_func_facts *r = &results[n++];
    r->fn = fn;
    r->truncated = e.truncated ? e.truncated : e.summaries[i].unsettled ? GM_CUT_RECURSION : 0;
    r->nfacts = (int)e.facts.len;
    r->facts = gm_arena_alloc(tu->arena, sizeof(gm_fact) * (e.facts.len ? e.facts.len : 1));
    if (e.facts.len)
      memcpy(r->facts, e.facts.items, sizeof(gm_fact) * e.facts.len);
  }
  GM_VEC_FREE(e.facts);
  flow_leak_index_clear(&e, 1);
  GM_VEC_FREE(e.paths);
  GM_VEC_FREE(e.gotos);
  GM_VEC_FREE(e.switch_entries);
  GM_VEC_FREE(e.retested);
  GM_VEC_FREE(e.reads);
  GM_VEC_FREE(e.loops);
  GM_VEC_FREE(e.dep_bit);
  GM_VEC_FREE(e.anchors);
  GM_VEC_FREE(e.imported);
  free(e.imported_by_usr);
  free(e.summaries);
  free(e.by_usr);
  *out = results;
  *nout = n;
}
