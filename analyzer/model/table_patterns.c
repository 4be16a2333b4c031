/* The table queries of patterns.h (GM010's setup loops): whether an allocation in a loop fills a
 * different element of a table on each iteration, and whether the loop walks devices or data. */
#include "model/patterns.h"

#include <string.h>

struct one_def {
  int var;
  const gm_node *rhs;
  int defs;
};

static void find_defs(const gm_node *n, void *arg) {
  struct one_def *d = arg;
  if (n->kind == GM_N_DECL && n->var == d->var) {
    d->defs++;
    d->rhs = gm_kid(n, 0);
  } else if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC) && n->kids[0]->kind == GM_N_VAR &&
             n->kids[0]->var == d->var) {
    d->defs++;
    d->rhs = n->kind == GM_N_ASSIGN && !n->op ? n->kids[1] : NULL;
  }
}

struct slot_ctx {
  const gm_func *fn;
  const gm_node *loop;
  int *table;
};

static int slot_moves(const struct slot_ctx *c, const gm_node *lv, int depth);

/* The value a variable the loop sets exactly once per iteration gets (`Plan *p = &plan[i];`),
 * or NULL. */
static const gm_node *single_def(const gm_node *loop, int var) {
  struct one_def d = {var, NULL, 0};
  gm_walk(loop, find_defs, &d);
  return d.defs == 1 ? d.rhs : NULL;
}

/* Whether pointer expression p points at a different element on each iteration: `bufs + i`,
 * `&plan[i]`, a pointer the loop steps (`++it`), or a local set once per iteration to one of
 * those (`Plan *p = &plan[i];`). */
static int pointer_moves(const struct slot_ctx *c, const gm_node *p, int depth) {
  p = gm_strip(p);
  if (!p || depth > 8)
    return 0;
  switch (p->kind) {
  case GM_N_ADDR:
    return slot_moves(c, gm_kid(p, 0), depth + 1);
  case GM_N_ARITH:
    if (p->op != '+' && p->op != '-')
      return 0;
    if (gm_depends_on_loop(c->loop, gm_kid(p, 1)) && !gm_depends_on_loop(c->loop, gm_kid(p, 0))) {
      *c->table = gm_root_var(gm_kid(p, 0)); /* bufs + i */
      return 1;
    }
    return pointer_moves(c, gm_kid(p, 0), depth + 1);
  case GM_N_VAR: {
    if (p->var < 0 || !c->loop->modified[p->var])
      return 0;
    if (c->fn->vars[p->var].kind == GM_VAR_REF)
      return slot_moves(c, p, depth + 1);
    const gm_node *def = single_def(c->loop, p->var);
    if (def && pointer_moves(c, def, depth + 1))
      return 1; /* Plan *p = &plan[i]; */
    if (gm_address_stride(c->loop, p) == 1) {
      *c->table = p->var; /* for (Plan *it = plan; it != end; ++it) */
      return 1;
    }
    return 0;
  }
  default:
    return 0;
  }
}

/* Whether lvalue lv is a different element of a table on each iteration: `bufs[i]` (an array or
 * a container), `plan[i].buf`, `ctx->bufs[i]`, `p->buf` with p moving, `*(bufs + i)`, a reference
 * bound to an element (`Plan &q = plan[i];`, the variable of `for (auto &q : plans)`). */
static int slot_moves(const struct slot_ctx *c, const gm_node *lv, int depth) {
  lv = gm_strip(lv);
  if (!lv || depth > 8)
    return 0;
  switch (lv->kind) {
  case GM_N_INDEX:
    if (gm_depends_on_loop(c->loop, gm_kid(lv, 1))) {
      *c->table = gm_root_var(gm_kid(lv, 0));
      return 1;
    }
    return slot_moves(c, gm_kid(lv, 0), depth + 1);
  case GM_N_FIELD: {
    const gm_node *base = gm_strip(gm_kid(lv, 0));
    if (!base)
      return 0;
    if ((base->kind == GM_N_VAR && c->fn->vars[base->var].kind != GM_VAR_REF) ||
        base->kind == GM_N_ARITH)
      return pointer_moves(c, base, depth + 1); /* p->buf (s.buf: a local, never moves) */
    return slot_moves(c, base, depth + 1);
  }
  case GM_N_DEREF:
    return pointer_moves(c, gm_kid(lv, 0), depth + 1);
  case GM_N_CALL: /* a container's element: plans[i] on a std::vector */
    if (!lv->name || strcmp(lv->name, "operator[]") != 0 || lv->nkids != 2)
      return 0;
    if (gm_depends_on_loop(c->loop, lv->kids[1])) {
      *c->table = gm_root_var(lv->kids[0]);
      return 1;
    }
    return slot_moves(c, lv->kids[0], depth + 1);
  case GM_N_VAR: {
    if (lv->var < 0 || c->fn->vars[lv->var].kind != GM_VAR_REF || !c->loop->modified[lv->var])
      return 0;
    const gm_node *body = c->loop->kids[3];
    const gm_node *first = body && body->kind == GM_N_SEQ ? gm_kid(body, 0) : NULL;
    if (c->loop->op == GM_LOOP_RANGE && first && first->kind == GM_N_DECL &&
        first->var == lv->var) {
      *c->table = gm_root_var(c->loop->kids[0]); /* for (auto &q : plans) */
      return 1;
    }
    const gm_node *def = single_def(c->loop, lv->var);
    return def && slot_moves(c, def, depth + 1); /* Plan &q = plan[i]; */
  }
  default:
    return 0;
  }
}

int gm_table_slot(const gm_func *fn, const gm_node *loop, const gm_node *call, int *table) {
  *table = -1;
  if (!call->fn || call->fn->ptr_arg < 0)
    return 0;
  struct slot_ctx c = {fn, loop, table};
  return pointer_moves(&c, gm_arg(call, call->fn->ptr_arg), 0);
}

int gm_element_slot(const gm_func *fn, const gm_node *loop, const gm_node *lv, int *table) {
  *table = -1;
  struct slot_ctx c = {fn, loop, table};
  return slot_moves(&c, lv, 0);
}

/* ---- devices or data ---- */

static int names_one_of(const gm_node *n, const char *const *names) {
  if (n->kind != GM_N_CALL || !n->name)
    return 0;
  for (; *names; names++)
    if (strcmp(n->name, *names) == 0)
      return 1;
  return 0;
}

/* Calls that make a device current: a loop calling one selects a device on each iteration. */
static const char *const device_switch_calls[] = {"cudaSetDevice", "cuCtxSetCurrent",
                                                  "cuCtxPushCurrent", "cuCtxPushCurrent_v2", NULL};

/* Calls that give each iteration its own device, context or stream: the loop walks devices. */
static const char *const per_device_calls[] = {"cuCtxCreate",
                                               "cuCtxCreate_v2",
                                               "cudaStreamCreate",
                                               "cudaStreamCreateWithFlags",
                                               "cudaStreamCreateWithPriority",
                                               "cuStreamCreate",
                                               "cudaEventCreate",
                                               "cudaEventCreateWithFlags",
                                               "ncclCommInitRank",
                                               NULL};
/* Calls that count devices through their out-parameter. */
static const char *const device_count_calls[] = {"cudaGetDeviceCount", "cuDeviceGetCount", NULL};

int gm_call_switches_device(const gm_node *n) {
  return names_one_of(n, device_switch_calls) || (n->kind == GM_N_CALL && n->selects_device);
}

static void find_per_device_call(const gm_node *n, void *arg) {
  if (gm_call_switches_device(n) || names_one_of(n, per_device_calls))
    *(int *)arg = 1;
}

static void find_device_switch(const gm_node *n, void *arg) {
  if (gm_call_switches_device(n))
    *(int *)arg = 1;
}

int gm_loop_switches_device(const gm_node *loop) {
  int found = 0;
  gm_walk(loop, find_device_switch, &found);
  return found;
}

struct count_search {
  int var;
  int found;
};

static void find_device_count(const gm_node *n, void *arg) {
  struct count_search *c = arg;
  if (names_one_of(n, device_count_calls) && n->nkids && gm_root_var(gm_arg(n, 0)) == c->var)
    c->found = 1;
}

/* Whether a bound counts devices: a constant no larger than the device-count threshold
 * (MAX_GPUS), or a variable that a device-count query fills in this function. */
static int device_count_bound(const gm_func *fn, const gm_node *bound) {
  if (bound->has_value)
    return bound->value <= gm_threshold(fn->limits, GM_T_DEVICE_COUNT);
  int var = gm_root_var(bound);
  if (var < 0)
    return 0;
  struct count_search c = {var, 0};
  gm_walk(fn->body, find_device_count, &c);
  return c.found;
}

/* Whether a table-filling loop walks the elements of data rather than devices or streams: its
 * condition compares a variable the loop steps with a bound that is no device count, and its
 * body selects no device and creates no stream. Unknown (a range-for, a compound condition):
 * not data. */
int gm_loop_selects_device(const gm_node *loop) {
  int per_device = 0;
  gm_walk(loop, find_per_device_call, &per_device);
  return per_device;
}

/* The side of a loop's `<`-like condition that the loop leaves unchanged, or NULL. */
static const gm_node *loop_bound(const gm_node *loop) {
  const gm_node *cond = loop->kids[1];
  if (!cond || cond->kind != GM_N_CMP || cond->nkids != 2 || cond->op == '=' || cond->op == '!')
    return NULL;
  const gm_node *bound = NULL;
  for (int i = 0; i < 2; i++)
    if (!gm_depends_on_loop(loop, cond->kids[i]))
      bound = cond->kids[i];
  return bound;
}

int gm_loop_constant_device_bound(const gm_func *fn, const gm_node *loop, long long *bound) {
  const gm_node *b = loop_bound(loop);
  if (!b || !b->has_value || !device_count_bound(fn, b))
    return 0;
  *bound = b->value;
  return 1;
}

int gm_loop_over_data(const gm_func *fn, const gm_node *loop) {
  const gm_node *bound = loop_bound(loop);
  if (!bound || device_count_bound(fn, bound))
    return 0;
  int per_device = 0;
  gm_walk(loop, find_per_device_call, &per_device);
  return !per_device;
}

/* ---- a pointer kept past its iteration ---- */

struct kept_ctx {
  const gm_func *fn;
  const gm_node *loop;
  int var;
  int *table;
};

static int is_append(const gm_node *n) {
  static const char *const appends[] = {"push_back", "emplace_back", "push",
                                        "insert",    "append",       NULL};
  if (n->kind != GM_N_CALL || !n->is_method || !n->name)
    return 0;
  for (const char *const *a = appends; *a; a++)
    if (strcmp(n->name, *a) == 0)
      return 1;
  return 0;
}

static void find_kept(const gm_node *n, void *arg) {
  struct kept_ctx *k = arg;
  int table;
  if (*k->table >= 0)
    return;
  if (n->kind == GM_N_ASSIGN && !n->op && gm_strip(n->kids[1]) &&
      gm_strip(n->kids[1])->kind == GM_N_VAR && gm_strip(n->kids[1])->var == k->var &&
      gm_element_slot(k->fn, k->loop, n->kids[0], &table) && table >= 0)
    *k->table = table; /* bufs[i] = buf; */
  else if (is_append(n) && n->callee_member && gm_root_var(n->callee_member) >= 0)
    for (int i = 0; i < n->nkids; i++) {
      const gm_node *a = gm_strip(n->kids[i]);
      if (a && a->kind == GM_N_VAR && a->var == k->var)
        *k->table = gm_root_var(n->callee_member); /* bufs.push_back(buf); */
    }
}

int gm_kept_in_table(const gm_func *fn, const gm_node *loop, const gm_node *call, int *table) {
  *table = -1;
  int var = gm_alloc_target_var(call);
  if (var < 0 || fn->vars[var].kind != GM_VAR_LOCAL)
    return 0;
  struct kept_ctx k = {fn, loop, var, table};
  gm_walk(loop, find_kept, &k);
  return *table >= 0;
}
