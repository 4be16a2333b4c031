/* The global-table query of patterns.h (GM001): an allocation into an element of a global array
 * that its function makes on every call, without looking at what the element holds, in a
 * function a loop calls for the same element on every iteration. */
#include "model/loop_counter.h"
#include "model/patterns.h"

#include <string.h>

/* How far calls are followed to find code that may test or free the table (past it: assumed). */
enum { MAX_TOUCH_DEPTH = 4 };

/* Whether n names the global of this USR. */
static int names_global(const gm_func *fn, const gm_node *n, const char *usr) {
  return n->kind == GM_N_VAR && n->var >= 0 && n->var < fn->nvars &&
         fn->vars[n->var].kind == GM_VAR_GLOBAL && fn->vars[n->var].usr &&
         strcmp(fn->vars[n->var].usr, usr) == 0;
}

/* Whether n lies under a branch of `top` (taken on some executions only): an if's arm, a case,
 * a handler, the second operand of ?:, && or ||. The condition of an if runs every time. */
static int conditional_within(const gm_node *n, const gm_node *top) {
  for (const gm_node *child = n, *p = n->parent; p && p != top; child = p, p = p->parent) {
    switch (p->kind) {
    case GM_N_IF:
    case GM_N_COND:
    case GM_N_LAND:
    case GM_N_LOR:
    case GM_N_TRY:
      if (child != p->kids[0])
        return 1;
      break;
    case GM_N_SWITCH:
    case GM_N_CASE:
      return 1;
    case GM_N_LOOP:
      if (!p->runs_once)
        return 1; /* the function's own loop: another question (GM010) */
      break;
    default:
      break;
    }
  }
  return 0;
}

/* A use of the table that only reads or writes the block (`cudaMemset(slots[i], ..)`, a
 * launch): `G[k]` as an argument of a use, copy, fill, prefetch or borrow row, or of a launch. */
static int reads_element(const gm_node *var) {
  const gm_node *e = var->parent;
  if (!e || e->kind != GM_N_INDEX || e->kids[0] != var)
    return 0;
  const gm_node *c = e->parent;
  while (c && c->kind == GM_N_OTHER && c->nkids == 1 && !c->invalid)
    c = c->parent; /* a cast */
  if (!c || c->kind != GM_N_CALL)
    return 0;
  if (c->is_launch)
    return 1;
  return c->fn && (c->fn->kind == GM_FN_USE || c->fn->kind == GM_FN_COPY ||
                   c->fn->kind == GM_FN_DEVICE_FILL || c->fn->kind == GM_FN_PREFETCH ||
                   c->fn->kind == GM_FN_BORROW);
}

struct touch_ctx {
  const gm_tu *tu;
  const gm_func *fn;   /* whose body is walked */
  const char *usr;     /* the table's */
  int internal;        /* the table is seen by this file alone */
  const gm_node *skip; /* the allocation itself, or the call of the allocating function */
  int reads_ok;        /* uses that only read or write the block are allowed */
  int depth;
  unsigned char *seen; /* per function of the unit: followed already */
  int touches;
};

static const gm_func *function_of(const gm_tu *tu, const char *usr, int *index) {
  for (int i = 0; usr && i < tu->nfuncs; i++)
    if (tu->funcs[i]->usr && tu->funcs[i]->body && strcmp(tu->funcs[i]->usr, usr) == 0) {
      *index = i;
      return tu->funcs[i];
    }
  return NULL;
}

static void touch_visit(const gm_node *n, void *arg);

/* Whether a call may test or free the table: a function of the unit whose body (or what it
 * calls) names it; code the unit has no body for, unless the table is this file's alone. */
static int call_may_touch(struct touch_ctx *c, const gm_node *call) {
  if (call->fn || call->in_system || call->is_launch)
    return 0; /* a table row acts on its arguments, which are looked at themselves */
  int i = -1;
  const gm_func *g = call->noverloads ? NULL : function_of(c->tu, call->callee_usr, &i);
  if (!g)
    return !c->internal;
  if (c->seen[i])
    return 0;
  if (c->depth >= MAX_TOUCH_DEPTH)
    return 1;
  c->seen[i] = 1;
  struct touch_ctx inner = *c;
  inner.fn = g;
  inner.skip = NULL;
  inner.depth = c->depth + 1;
  inner.touches = 0;
  gm_walk(g->body, touch_visit, &inner);
  return inner.touches;
}

static void touch_visit(const gm_node *n, void *arg) {
  struct touch_ctx *c = arg;
  if (c->touches || (c->skip && gm_inside(n, c->skip)) || n == c->skip)
    return;
  if (names_global(c->fn, n, c->usr) && !(c->reads_ok && reads_element(n)))
    c->touches = 1;
  else if (n->kind == GM_N_CALL && call_may_touch(c, n))
    c->touches = 1;
}

/* Whether code under n (but `skip`) may test or free the table. */
static int may_touch(const gm_tu *tu, const gm_func *fn, const gm_node *n, const gm_node *skip,
                     const gm_var *table, int reads_ok) {
  unsigned char seen[4096] = {0};
  if (tu->nfuncs > (int)sizeof seen)
    return 1; /* a generated file: not followed */
  struct touch_ctx c = {tu, fn, table->usr, table->internal, skip, reads_ok, 0, seen, 0};
  gm_walk(n, touch_visit, &c);
  return c.touches;
}

int gm_global_slot_refilled(const gm_tu *tu, const gm_func *fn, const gm_node *call,
                            gm_slot_refill *out) {
  if (fn->is_kernel || fn->is_device || !fn->usr || !call->fn || call->fn->kind != GM_FN_ALLOC ||
      call->fn->ptr_arg < 0 || call->fn->ptr_field)
    return 0;
  const gm_node *arg = gm_strip(gm_arg(call, call->fn->ptr_arg));
  const gm_node *lv = arg && arg->kind == GM_N_ADDR ? gm_strip(gm_kid(arg, 0)) : NULL;
  const gm_node *base = lv && lv->kind == GM_N_INDEX ? gm_kid(lv, 0) : NULL;
  if (!base || base->kind != GM_N_VAR || base->var < 0)
    return 0;
  const gm_var *table = &fn->vars[base->var];
  if (table->kind != GM_VAR_GLOBAL || !table->is_array || !table->usr)
    return 0;
  /* the same element on every call: a constant, or a parameter the caller passes unchanged */
  const gm_node *index = gm_strip(gm_kid(lv, 1));
  int param = -1;
  if (!index)
    return 0;
  if (index->kind == GM_N_VAR && index->var >= 0 && fn->vars[index->var].kind == GM_VAR_PARAM)
    param = fn->vars[index->var].param_index;
  else if (!index->has_value)
    return 0;
  if (conditional_within(call, fn->body) || gm_alloc_guarded(fn, call, NULL) ||
      may_touch(tu, fn, fn->body, call, table, 1))
    return 0; /* tested, freed or handed on somewhere in the function: not plainly overwritten */
  size_t ncalls;
  const gm_call_site *calls = gm_calls_to(tu, fn->usr, &ncalls);
  for (size_t k = 0; k < ncalls; k++) {
    const gm_func *g = tu->funcs[calls[k].func];
    const gm_node *at = calls[k].call;
    const gm_node *loop = gm_enclosing_loop(at);
    gm_exemption why;
    if (g == fn || g->is_kernel || g->is_device || !loop ||
        !(loop = gm_repeating_loop(g, at, loop, &why)) || conditional_within(at, loop))
      continue;
    const gm_node *given = param >= 0 ? gm_arg(at, param) : NULL;
    if (param >= 0 &&
        (!given || gm_depends_on_loop(loop, given) || !gm_loop_invariant(g, loop, given)))
      continue; /* fill_slot(i, n) over i: another element each time */
    if (may_touch(tu, g, loop, at, table, 1))
      continue; /* the loop tests or frees the table, or calls what may */
    out->call_in_loop = at;
    out->loop = loop;
    out->caller = g;
    out->table = table;
    out->index = index;
    out->index_name = param >= 0 ? fn->vars[index->var].name : NULL;
    return 1;
  }
  return 0;
}
