/* The kernel queries of patterns.h (GM030): the kernel a launch names, and a dense access of one
 * of its pointer parameters, indexed by the thread's position. */
#include "model/patterns.h"

#include <stdlib.h>
#include <string.h>

const gm_func *gm_find_kernel(const gm_tu *tu, const char *usr, const char *name) {
  for (int i = 0; usr && i < tu->nfuncs; i++)
    if (tu->funcs[i]->is_kernel && strcmp(tu->funcs[i]->usr, usr) == 0)
      return tu->funcs[i];
  for (int i = 0; name && i < tu->nfuncs; i++)
    if (tu->funcs[i]->is_kernel && strcmp(tu->funcs[i]->name, name) == 0)
      return tu->funcs[i];
  return NULL;
}

/* ---- dense access classification ---- */

static int is_thread_builtin(const gm_func *k, const gm_node *e) {
  if (!e || e->kind != GM_N_FIELD)
    return 0;
  const gm_node *base = gm_kid(e, 0);
  if (!base || base->kind != GM_N_VAR)
    return 0;
  const char *v = k->vars[base->var].name;
  return strcmp(v, "threadIdx") == 0 || strcmp(v, "blockIdx") == 0 || strcmp(v, "blockDim") == 0 ||
         strcmp(v, "gridDim") == 0;
}

/* Cooperative groups (<cooperative_groups.h>): a group's member functions give the thread's
 * position (`grid.thread_rank()`, `block.thread_index().x`) or a size the same for every thread
 * (`grid.size()`, `block.num_threads()`). The model keeps no object for a member call (and most
 * of these are static members), so they are known by name, as functions declared in a system
 * header. Returns 1 for a position, 0 for a size, -1 for anything else. */
static int cg_call(const gm_node *e) {
  if (!e || e->kind != GM_N_CALL || !e->name || !e->in_system)
    return -1;
  static const char *const position[] = {"thread_rank", "thread_index", "block_rank",
                                         "block_index", "group_index",  "meta_group_rank",
                                         "cluster_rank"};
  static const char *const size[] = {
      "size",       "num_threads", "num_blocks",      "dim_threads",
      "dim_blocks", "group_dim",   "meta_group_size", "num_clusters"};
  for (size_t i = 0; i < sizeof position / sizeof *position; i++)
    if (strcmp(e->name, position[i]) == 0)
      return 1;
  for (size_t i = 0; i < sizeof size / sizeof *size; i++)
    if (strcmp(e->name, size[i]) == 0)
      return 0;
  return -1;
}

typedef struct affine_ctx {
  const gm_func *k;
  unsigned char *bad;    /* per var: assigned something data-dependent */
  unsigned char *thread; /* per var: derived from the thread's position */
} affine_ctx;

/* Affine in thread position and plain integers: +, -, *, shifts, constants, variables that are
 * not data-dependent. Returns -1 if not affine, else whether it depends on the thread. */
static int affine(const affine_ctx *c, const gm_node *e) {
  if (!e)
    return -1;
  if (is_thread_builtin(c->k, e))
    return 1;
  switch (e->kind) {
  case GM_N_CONST:
  case GM_N_NULL:
    return 0;
  case GM_N_VAR:
    if (c->k->vars[e->var].is_pointer || c->bad[e->var])
      return -1;
    return c->thread[e->var];
  case GM_N_ARITH: {
    if (e->op != '+' && e->op != '-' && e->op != '*' && e->op != 'l')
      return -1;
    int a = affine(c, gm_kid(e, 0)), b = affine(c, gm_kid(e, 1));
    if (a < 0 || b < 0)
      return -1;
    return a || b;
  }
  case GM_N_CALL:
    return cg_call(e);
  case GM_N_FIELD: /* block.thread_index().x */
    return cg_call(gm_strip(gm_kid(e, 0)));
  case GM_N_OTHER:
    if (e->nkids == 1)
      return affine(c, e->kids[0]);
    return -1;
  default:
    return -1;
  }
}

static void classify_assignments(const gm_node *n, void *arg) {
  affine_ctx *c = arg;
  int var = -1;
  const gm_node *rhs = NULL;
  int compound = 0;
  if (n->kind == GM_N_DECL && n->nkids) {
    var = n->var;
    rhs = n->kids[0];
  } else if (n->kind == GM_N_ASSIGN && n->kids[0]->kind == GM_N_VAR) {
    var = n->kids[0]->var;
    rhs = n->kids[1];
    compound = n->op;
  }
  if (var < 0)
    return;
  int a = affine(c, rhs);
  if (a < 0)
    c->bad[var] = 1;
  else if (a > 0 && !compound)
    c->thread[var] = 1;
}

struct dense_ctx {
  const gm_tu *tu;
  const affine_ctx *a;
  int param_var;
  int base_moves; /* the pointer is already offset by the thread's position */
  int depth;
  const gm_node *found;
  const gm_func *where;
};

static int is_param_base(const struct dense_ctx *d, const gm_node *b) {
  b = gm_strip(b);
  return b && b->kind == GM_N_VAR && b->var == d->param_var;
}

static void find_dense(const gm_node *n, void *arg) {
  struct dense_ctx *d = arg;
  if (d->found)
    return;
  const gm_node *index = NULL;
  if (n->kind == GM_N_INDEX && is_param_base(d, n->kids[0]))
    index = n->kids[1];
  else if (n->kind == GM_N_DEREF && gm_kid(n, 0) && gm_strip(n->kids[0])->kind == GM_N_ARITH &&
           gm_strip(n->kids[0])->op == '+' && is_param_base(d, gm_kid(gm_strip(n->kids[0]), 0)))
    index = gm_kid(gm_strip(n->kids[0]), 1);
  else if (n->kind == GM_N_DEREF && d->base_moves && is_param_base(d, gm_kid(n, 0)))
    index = n; /* *p, with p = base + thread position */
  if (!index)
    return;
  int a = index == n ? 0 : affine(d->a, index);
  if (a == 1 || (a == 0 && d->base_moves))
    d->found = n;
}

static const gm_func *find_function(const gm_tu *tu, const char *usr) {
  for (int i = 0; usr && i < tu->nfuncs; i++)
    if (tu->funcs[i]->body && tu->funcs[i]->usr && strcmp(tu->funcs[i]->usr, usr) == 0)
      return tu->funcs[i];
  return NULL;
}

static const gm_node *dense_in(const gm_tu *tu, const gm_func *fn, int param,
                               const unsigned char *thread_params, int base_moves, int depth,
                               const gm_func **where);

/* A call in the function under study that hands its pointer (or the pointer plus an affine
 * offset) to a same-file __device__ helper: the helper's accesses count, with the thread
 * positions the call passes in as its thread-derived parameters. */
static void find_dense_in_callee(const gm_node *n, void *arg) {
  struct dense_ctx *d = arg;
  if (d->found || n->kind != GM_N_CALL || n->is_launch || n->is_kernel_callee || !n->callee_usr)
    return;
  const gm_func *callee = find_function(d->tu, n->callee_usr);
  if (!callee || callee == d->a->k || !callee->is_device)
    return;
  unsigned char thread_params[32] = {0};
  for (int i = 0; i < n->nkids && i < 32; i++)
    thread_params[i] = affine(d->a, n->kids[i]) == 1;
  for (int i = 0; i < n->nkids && !d->found; i++) {
    const gm_node *arg_i = gm_strip(n->kids[i]);
    int moves = d->base_moves;
    if (arg_i && arg_i->kind == GM_N_ARITH && arg_i->op == '+' &&
        is_param_base(d, gm_kid(arg_i, 0))) {
      int off = affine(d->a, gm_kid(arg_i, 1));
      if (off < 0)
        continue; /* p + idx[i]: a gather */
      moves = moves || off == 1;
    } else if (!is_param_base(d, arg_i)) {
      continue;
    }
    d->found = dense_in(d->tu, callee, i, thread_params, moves, d->depth + 1, &d->where);
  }
}

/* A dense access through parameter `param` of fn, or of a __device__ helper fn calls with it. */
static const gm_node *dense_in(const gm_tu *tu, const gm_func *fn, int param,
                               const unsigned char *thread_params, int base_moves, int depth,
                               const gm_func **where) {
  int param_var = -1;
  for (int i = 0; i < fn->nvars; i++)
    if (fn->vars[i].param_index == param)
      param_var = i;
  if (param_var < 0 || !fn->body || depth > 4)
    return NULL;
  size_t n = (size_t)(fn->nvars ? fn->nvars : 1);
  affine_ctx c = {fn, calloc(n, 1), calloc(n, 1)};
  for (int i = 0; thread_params && i < fn->nvars; i++)
    if (fn->vars[i].param_index >= 0 && fn->vars[i].param_index < 32)
      c.thread[i] = thread_params[fn->vars[i].param_index];
  /* a variable is thread-derived once everything assigned to it is; two passes settle chains
   * such as `int tid = ...; int i = tid * 4;` */
  for (int pass = 0; pass < 3; pass++)
    gm_walk(fn->body, classify_assignments, &c);
  for (size_t i = 0; i < n; i++)
    if (c.bad[i])
      c.thread[i] = 0;
  struct dense_ctx d = {tu, &c, param_var, base_moves, depth, NULL, fn};
  gm_walk(fn->body, find_dense, &d);
  if (!d.found)
    gm_walk(fn->body, find_dense_in_callee, &d);
  free(c.bad);
  free(c.thread);
  if (d.found)
    *where = d.where;
  return d.found;
}

const gm_node *gm_kernel_dense_access(const gm_tu *tu, const gm_func *kernel, int param,
                                      const gm_func **where) {
  const gm_func *unused;
  return dense_in(tu, kernel, param, NULL, 0, 0, where ? where : &unused);
}
