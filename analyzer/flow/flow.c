/* The flow engine's entry: summarises the TU's functions to a fixed point, then runs each
 * main-file function that allocates or frees from its entry state and collects its facts. */
#include "flow/flow.h"

#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

/* ---- driving one function ---- */

/* Locals whose address reaches code we do not model (so their value may change behind our back).
 * An address handed to a table function (cudaMalloc(&p), cudaMemcpy(&x, ...)) does not count:
 * what those calls do with it is modelled. */
static void mark_addr_taken(engine *e, const gm_node *n) {
  if (!n)
    return;
  int known_call = n->kind == GM_N_CALL && (n->fn || n->is_launch || gm_call_borrows(n));
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *k = n->kids[i];
    if (k && k->kind == GM_N_ADDR && gm_kid(k, 0) && k->kids[0]->kind == GM_N_VAR) {
      if (!known_call)
        e->addr_taken[k->kids[0]->var] = 1;
      continue;
    }
    if (k && n->kind == GM_N_LAMBDA && k->kind == GM_N_VAR)
      e->addr_taken[k->var] = 1;
    mark_addr_taken(e, k);
  }
}

void flow_run_function(engine *e, const gm_func *fn) {
  e->fn = fn;
  e->steps = 0;
  e->truncated = 0;
  find_retested(e, fn->body);
  e->addr_taken = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  e->array_init = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), sizeof(gm_node *));
  mark_addr_taken(e, fn->body);
  state *s = state_new();
  for (int v = 0; v < fn->nvars; v++) {
    const gm_var *var = &fn->vars[v];
    if (var->param_index < 0 || !var->is_handle)
      continue;
    obj o = {0};
    o.param = var->param_index;
    o.deref_param = -1;
    o.state = OBJ_LIVE; /* the caller owns it: no site, so never reported as a leak */
    o.owner = var->name;
    int id = obj_new(s, o);
    slot_set_raw(s, v, mk(V_OBJ, id));
    if (var->is_pointer_to_pointer && e->summary_mode) {
      /* `T **pp`: what *pp holds is the caller's too; a helper may free it through pp */
      obj pointee = {0};
      pointee.param = -1;
      pointee.deref_param = var->param_index;
      pointee.state = OBJ_LIVE;
      slot_set_raw(s, path_slot(e, gm_xasprintf("*v%d", v)), mk(V_OBJ, obj_new(s, pointee)));
    }
  }
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
      observe_exit(e, st, mk(V_UNKNOWN, 0));
    else
      check_exit(e, st, end_node, GM_EXIT_END);
  }
  list_free(&out.next);
  list_free(&out.brk);
  list_free(&out.cont);
  for (size_t i = 0; i < e->gotos.len; i++)
    state_free(e->gotos.items[i].st);
  e->gotos.len = 0;
  for (size_t i = 0; i < e->paths.len; i++)
    free(e->paths.items[i]);
  e->paths.len = 0;
  free(e->addr_taken);
  e->addr_taken = NULL;
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
    const summary *sum = row ? NULL : summary_for(e, n->callee_usr);
    if (sum && sum->returns_fresh)
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
  for (int round = 0; round < SUMMARY_ROUNDS; round++) {
    int changed = 0;
    for (int i = 0; i < tu->nfuncs; i++)
      changed |= summarise(&e, &e.summaries[i]);
    if (!changed)
      break;
  }
  if (exported)
    export_summaries(&e, exported, nexported);
  gm_func_facts *results =
      gm_arena_alloc(tu->arena, sizeof(gm_func_facts) * (size_t)(tu->nfuncs ? tu->nfuncs : 1));
  int n = 0;
  for (int i = 0; i < tu->nfuncs; i++) {
    const gm_func *fn = tu->funcs[i];
    if (!fn->in_main_file)
      continue;
    e.facts.len = 0;
    e.reported.len = 0;
    if (allocates_or_frees(&e, fn->body)) /* else there is nothing to find (kernels, math) */
      flow_run_function(&e, fn);
    else
      e.truncated = 0;
    gm_func_facts *r = &results[n++];
    r->fn = fn;
    r->truncated = e.truncated;
    r->nfacts = (int)e.facts.len;
    r->facts = gm_arena_alloc(tu->arena, sizeof(gm_fact) * (e.facts.len ? e.facts.len : 1));
    if (e.facts.len)
      memcpy(r->facts, e.facts.items, sizeof(gm_fact) * e.facts.len);
  }
  GM_VEC_FREE(e.facts);
  GM_VEC_FREE(e.reported);
  GM_VEC_FREE(e.paths);
  GM_VEC_FREE(e.gotos);
  GM_VEC_FREE(e.switch_entries);
  GM_VEC_FREE(e.retested);
  GM_VEC_FREE(e.imported);
  GM_VEC_FREE(e.imported_usr);
  free(e.summaries);
  *out = results;
  *nout = n;
}
