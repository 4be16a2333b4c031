/* Branch conditions: splitting path states on a condition's truth (null tests, call statuses,
 * equalities with constants), and remembering decisions that a later test of the same
 * condition must agree with. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

/* A library comparison that reads its operands and nothing else: `mode == "fast"` on a
 * std::string (a free operator declared in a system header, writing through no argument). */
static int library_comparison(const gm_node *call) {
  static const char *const names[] = {"operator==", "operator!=", "operator<", "operator>",
                                      "operator<=", "operator>=", NULL};
  if (call->kind != GM_N_CALL || !call->in_system || call->arg_writes || call->fn || call->object ||
      !call->name)
    return 0;
  for (const char *const *k = names; *k; k++)
    if (strcmp(call->name, *k) == 0)
      return 1;
  return 0;
}

/* Marks the variables used otherwise than compared by a library comparison, assigned or
 * destroyed: a method called on one (the object is not among the call's kids), or any other
 * use, which may change it. */
static void mark_other_use(const gm_node *n, void *arg) {
  engine *e = arg;
  if (n->kind == GM_N_CALL && n->object && !n->implicit_dtor) {
    int var = gm_root_var(n->object);
    if (var >= 0 && var < e->fn->nvars)
      e->used_otherwise[var] = 1; /* `mode.append(..)` */
  }
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *k = n->kids[i];
    if (!k || k->kind != GM_N_VAR || k->var < 0 || k->var >= e->fn->nvars)
      continue;
    int assigned = n->kind == GM_N_ASSIGN && !n->op && i == 0;
    if (!assigned && !library_comparison(n))
      e->used_otherwise[k->var] = 1;
  }
}

void flow_mark_object_uses(engine *e) {
  gm_walk(e->fn->body, mark_other_use, e);
}

/* Whether a local object is only compared, assigned or destroyed in fn: what a comparison of it
 * says holds until an assignment, which the engine sees (a `std::string mode` set once). */
static int only_compared(const engine *e, int var) {
  return var >= 0 && var < e->fn->nvars && !e->addr_taken[var] && !e->used_otherwise[var] &&
         e->fn->vars[var].kind == GM_VAR_LOCAL;
}

int flow_is_pure(const gm_node *n, uint64_t *deps, const engine *e) {
  if (!n)
    return 1;
  switch (n->kind) {
  case GM_N_CALL:
    if (!library_comparison(n))
      return 0;
    for (int i = 0; i < n->nkids; i++) {
      const gm_node *k = gm_strip(n->kids[i]);
      if (k && k->kind == GM_N_VAR && !only_compared(e, k->var))
        return 0;
      if (k && k->kind != GM_N_VAR && k->kind != GM_N_CONST && !k->has_value)
        return 0;
    }
    break;
  case GM_N_ASSIGN:
  case GM_N_INCDEC:
  case GM_N_DECL:
  case GM_N_LAMBDA:
  case GM_N_THROW:
    return 0;
  case GM_N_VAR:
    if (e->addr_taken[n->var] || e->fn->vars[n->var].kind == GM_VAR_GLOBAL)
      *deps |= GLOBAL_DEP; /* may change behind our back */
    if (e->fn->vars[n->var].kind == GM_VAR_REF)
      *deps |= MEMORY_DEP;
    *deps |= slot_bit(e, n->var);
    return 1;
  case GM_N_FIELD:
  case GM_N_DEREF:
  case GM_N_INDEX:
    *deps |= MEMORY_DEP;
    break;
  default:
    break;
  }
  for (int i = 0; i < n->nkids; i++)
    if (!flow_is_pure(n->kids[i], deps, e))
      return 0;
  return 1;
}

uint64_t flow_node_key(const gm_node *n, uint64_t h) {
  if (!n)
    return gm_hash64("~", 1, h);
  int parts[3] = {(int)n->kind, n->op, n->var};
  h = gm_hash64(parts, sizeof parts, h);
  if (n->has_value) /* `a[1]` is not `a[2]` */
    h = gm_hash64(&n->value, sizeof n->value, h);
  if (n->name)
    h = gm_hash64(n->name, strlen(n->name), h);
  for (int i = 0; i < n->nkids; i++)
    h = flow_node_key(n->kids[i], h);
  return h;
}

static void route(engine *e, state *s, int truth, state_list *t, state_list *f) {
  flow_list_add(e, truth ? t : f, s);
}

static int has_invalid(const gm_node *n) {
  if (!n)
    return 0;
  if (n->invalid)
    return 1;
  for (int i = 0; i < n->nkids; i++)
    if (has_invalid(n->kids[i]))
      return 1;
  return 0;
}

/* Splits s on the truth of value v (already evaluated). */
static void branch_on_value(engine *e, state *s, val v, const gm_node *cond, state_list *t,
                            state_list *f) {
  switch (v.kind) {
  case V_NULL:
    route(e, s, 0, t, f);
    return;
  case V_CONST:
  case V_ADDR:
  case V_STATIC:
    route(e, s, 1, t, f);
    return;
  case V_OBJ: {
    obj *o = &s->objs[v.ref];
    if (o->state == OBJ_FAILED) {
      route(e, s, 0, t, f);
      return;
    }
    if (o->state == OBJ_LIVE && o->nonnull) {
      route(e, s, 1, t, f);
      return;
    }
    if (o->state == OBJ_LIVE && !v.offset) {
      s->objs[v.ref].nonnull = 1;
      state *no = flow_state_copy(e, s);
      no->objs[v.ref].nonnull = 0;
      no->objs[v.ref].state = OBJ_FAILED; /* the pointer is null: nothing was allocated */
      no->error_path = 1;
      route(e, s, 1, t, f);
      route(e, no, 0, t, f);
      return;
    }
    break;
  }
  case V_RESULT: {
    obj *o = &s->objs[v.ref];
    if (o->state == OBJ_FAILED) {
      route(e, s, 1, t, f);
      return;
    }
    if (o->state == OBJ_LIVE) {
      state *bad = flow_state_copy(e, s);
      bad->objs[v.ref].state = OBJ_FAILED; /* an error status: nothing was allocated */
      bad->error_path = 1;
      route(e, bad, 1, t, f);
      route(e, s, 0, t, f);
      return;
    }
    break;
  }
  case V_OK: {
    if (v.ref < 0) { /* a runtime call's status found equal to success: else it failed */
      state *bad = flow_state_copy(e, s);
      bad->error_path = 1;
      route(e, s, 1, t, f);
      route(e, bad, 0, t, f);
      return;
    }
    obj *o = &s->objs[v.ref];
    if (o->state == OBJ_LIVE) {
      state *bad = flow_state_copy(e, s);
      bad->objs[v.ref].state = OBJ_FAILED; /* `if (!load(path, &buf))`: nothing was allocated */
      bad->error_path = 1;
      route(e, s, 1, t, f);
      route(e, bad, 0, t, f);
      return;
    }
    if (o->state == OBJ_FAILED) {
      route(e, s, 0, t, f);
      return;
    }
    break;
  }
  case V_FREED: {
    obj *o = &s->objs[v.ref];
    if (o->state == OBJ_FREED) {
      /* the free failed: whether anything is left to free is unknown, so nothing is judged
       * (`CHECK(cudaFree(p))` that prints cudaFree(p) again on failure is no double free) */
      state *bad = flow_state_copy(e, s);
      bad->objs[v.ref].state = OBJ_FAILED;
      bad->error_path = 1;
      route(e, bad, 1, t, f);
      route(e, s, 0, t, f);
      return;
    }
    break;
  }
  case V_HANDLE: /* `if (!f)`, `if (f == NULL)` after fopen: the null branch is the failure's */
    flow_split_marking_failure(e, s, cond, 0, t, f);
    return;
  default:
    break;
  }
  flow_split_unknown(e, s, cond, t, f);
}

/* A condition whose value the engine does not know: remember the decision so a later test of
 * the same condition agrees. */
void flow_split_unknown(engine *e, state *s, const gm_node *cond, state_list *t, state_list *f) {
  uint64_t deps = 0;
  if (cond && flow_is_pure(cond, &deps, e)) {
    uint64_t key = flow_node_key(cond, 0);
    int known = flow_decision_find(s, key);
    if (known >= 0) {
      route(e, s, known, t, f);
      return;
    }
    state *other = flow_state_copy(e, s);
    if (flow_retested(e, key)) {
      int ghost = flow_ghost_find(s, key);
      if (ghost >= 0)
        (ghost ? other : s)->latent = 1; /* the way a call must have changed it */
      flow_decision_add(s, key, deps, 1);
      flow_decision_add(other, key, deps, 0);
    }
    route(e, s, 1, t, f);
    route(e, other, 0, t, f);
    return;
  }
  state *other = flow_state_copy(e, s); /* before routing: route() may free a duplicate state */
  if (cond && has_invalid(cond))        /* clang could not type it: either way is a guess */
    flow_guess_branch(s, other, cond);
  route(e, s, 1, t, f);
  route(e, other, 0, t, f);
}

/* `(status = call(...))` compared with a constant decides about `status` itself: a later test of
 * the variable must agree with it. */
const gm_node *flow_decided_node(const gm_node *n) {
  const gm_node *in = gm_strip(n);
  if (in && in->kind == GM_N_ASSIGN && !in->op && in->kids[0]->kind == GM_N_VAR)
    return in->kids[0];
  return n;
}

int flow_is_null_node(const gm_node *n) {
  return n && n->kind == GM_N_NULL;
}

/* `x == K` / `x != K` with K a nonzero constant and x free of side effects: remembered as an
 * equality, so a later test of x against K or another constant agrees with it. */
static int split_on_equality(engine *e, state *s, const gm_node *c, state_list *t, state_list *f) {
  const gm_node *a = c->kids[0], *b = c->kids[1];
  const gm_node *x = b->has_value ? a : a->has_value ? b : NULL;
  if (!x || x->has_value)
    return 0;
  long long k = x == a ? b->value : a->value;
  uint64_t deps = 0;
  if (!flow_is_pure(x, &deps, e))
    return 0;
  uint64_t base = flow_node_key(x, 0);
  int known = flow_eq_find(s, base, k);
  int equal_goes_to_t = c->op == '=';
  if (known >= 0) {
    route(e, s, known == equal_goes_to_t, t, f);
    return 1;
  }
  state *other = flow_state_copy(e, s);
  if (flow_retested(e, base)) {
    int ghost = flow_ghost_eq_find(s, base, k);
    if (ghost >= 0)
      (ghost ? other : s)->latent = 1; /* the way a call must have changed it */
    flow_eq_decision_add(s, base, deps, k, 1);
    flow_eq_decision_add(other, base, deps, k, 0);
  }
  route(e, s, equal_goes_to_t, t, f);
  route(e, other, !equal_goes_to_t, t, f);
  return 1;
}

/* ---- loop counters ---- */

/* A value as base + offset: `n - 1` is (n, -1), `4` is (0, 4), so `c == n - 1` and the bound of
 * `c < n` can be compared. An offset that would overflow stays in the base. */
static void canon(const gm_node *n, uint64_t *x, long long *k) {
  *k = 0;
  while (n && !n->has_value && n->kind == GM_N_ARITH && (n->op == '+' || n->op == '-') &&
         n->nkids == 2) {
    const gm_node *a = n->kids[0], *b = n->kids[1];
    long long sum;
    if (b->has_value && !(n->op == '+' ? __builtin_add_overflow(*k, b->value, &sum)
                                       : __builtin_sub_overflow(*k, b->value, &sum))) {
      *k = sum;
      n = a;
    } else if (a->has_value && n->op == '+' && !__builtin_add_overflow(*k, a->value, &sum)) {
      *k = sum;
      n = b;
    } else {
      break;
    }
  }
  long long sum;
  if (n && n->kind == GM_N_NULL) {
    *x = 0;
    return;
  }
  if (n && n->has_value && !__builtin_add_overflow(*k, n->value, &sum)) {
    *k = sum;
    *x = 0;
    return;
  }
  *x = flow_node_key(n, 0);
}

static uint64_t mix3(uint64_t a, uint64_t b, long long k, uint64_t salt) {
  uint64_t parts[3] = {a, b, (uint64_t)k};
  return gm_hash64(parts, sizeof parts, salt);
}

/* `the loop runs at least once`: its first test, `S < B` for a loop counting up from S while
 * c < B, written as L < H and keyed by L's and H's bases and the gap between their offsets, so a
 * loop down from B - 1 while c >= S has the same key. */
int flow_range_key(const gm_counter *c, uint64_t *key) {
  if (!c->bound)
    return 0;
  uint64_t sx, bx;
  long long sk, bk;
  canon(c->start, &sx, &sk);
  canon(c->bound, &bx, &bk);
  const char *op = c->cmp;
  uint64_t lx = sx, hx = bx;
  long long lk = sk, hk = bk;
  if (c->dir < 0)
    lx = bx, lk = bk, hx = sx, hk = sk;
  if ((c->dir > 0 && strcmp(op, "<=") == 0) || (c->dir < 0 && strcmp(op, ">=") == 0))
    hk++;
  else if (!((c->dir > 0 && strcmp(op, "<") == 0) || (c->dir < 0 && strcmp(op, ">") == 0) ||
             strcmp(op, "!=") == 0))
    return 0; /* it counts away from its bound */
  *key = mix3(lx, hx, hk - lk, 0x72616e6765ULL);
  return 1;
}

/* The counter's value on the last iteration of a loop stepping by 1: B - 1 for `c < B`, B for
 * `c >= B` counting down. */
static int last_value(const gm_counter *c, uint64_t *x, long long *k) {
  if (!c->bound || !c->unit)
    return 0;
  canon(c->bound, x, k);
  const char *op = c->cmp;
  if (c->dir > 0 && (strcmp(op, "<") == 0 || strcmp(op, "!=") == 0))
    return !__builtin_sub_overflow(*k, 1, k); /* `c < LLONG_MIN` has no last value */
  else if (c->dir < 0 && (strcmp(op, ">") == 0 || strcmp(op, "!=") == 0))
    return !__builtin_add_overflow(*k, 1, k);
  else if (!(c->dir > 0 && strcmp(op, "<=") == 0) && !(c->dir < 0 && strcmp(op, ">=") == 0))
    return 0;
  return 1;
}

static uint64_t var_key(const engine *e, int var, uint64_t *deps) {
  gm_node ref = {0};
  ref.kind = GM_N_VAR;
  ref.var = var;
  ref.name = e->fn->vars[var].name; /* as the front end names a variable */
  *deps = 0;
  (void)flow_is_pure(&ref, deps, e);
  return flow_node_key(&ref, 0);
}

/* `c == V` for a value V with no constant part alone: a plain fact that names the counter as its
 * base, so that a step of the counter finds it. */
static uint64_t counter_eq_key(const struct active_loop *l, uint64_t x, long long k) {
  return mix3(l->ckey, x, k, 0x6374726571ULL);
}

static int counter_eq_find(const state *s, const struct active_loop *l, uint64_t x, long long k) {
  return x ? flow_decision_find(s, counter_eq_key(l, x, k)) : flow_eq_find(s, l->ckey, k);
}

static void counter_eq_add(state *s, const struct active_loop *l, uint64_t x, long long k,
                           uint64_t deps, int truth) {
  if (!x) {
    flow_eq_decision_add(s, l->ckey, l->cdeps | deps, k, truth);
    return;
  }
  flow_decision_add(s, counter_eq_key(l, x, k), l->cdeps | deps, truth);
  s->decisions[s->ndecisions - 1].base = l->ckey;
}

static void fact_drop(state *s, uint64_t key) {
  int w = 0;
  for (int i = 0; i < s->ndecisions; i++)
    if (s->decisions[i].key != key)
      s->decisions[w++] = s->decisions[i];
  s->ndecisions = w;
}

static void set_last(state *s, const struct active_loop *l, int truth) {
  fact_drop(s, l->last_key);
  flow_decision_add(s, l->last_key, l->last_deps, truth);
}

/* `c == V` with c the counter of a loop being followed: the decision is remembered whether or
 * not the test is written twice, because the loop's next rounds test it again; it survives the
 * counter's step when true (c moves past V), and decides whether this is the last iteration when
 * V is the counter's last value. */
static int split_on_counter(engine *e, state *s, const gm_node *c, state_list *t, state_list *f) {
  const struct active_loop *l = NULL;
  const gm_node *v = NULL;
  int eq = 0;
  for (size_t i = e->loops.len; i-- > 0 && !l;)
    if (e->loops.items[i].counted && gm_counter_test(&e->loops.items[i].c, c, &v, &eq))
      l = &e->loops.items[i];
  uint64_t deps = 0;
  if (!l || !flow_is_pure(v, &deps, e))
    return 0;
  uint64_t x;
  long long k;
  canon(v, &x, &k);
  int is_last = l->has_last && x == l->last_x && k == l->last_k;
  int known = counter_eq_find(s, l, x, k);
  if (known >= 0) {
    if (is_last)
      set_last(s, l, known);
    route(e, s, known == eq, t, f);
    return 1;
  }
  state *other = flow_state_copy(e, s);
  counter_eq_add(s, l, x, k, deps, 1);
  counter_eq_add(other, l, x, k, deps, 0);
  if (is_last) {
    set_last(s, l, 1);
    set_last(other, l, 0);
  }
  route(e, s, eq, t, f);
  route(e, other, !eq, t, f);
  return 1;
}

void flow_loop_begin(engine *e, const gm_node *loop, state_list *entering) {
  struct active_loop l = {0};
  l.loop = loop;
  l.counted = gm_loop_counter(loop, &l.c);
  uint64_t start_deps = 0;
  if (l.counted) {
    l.ckey = var_key(e, l.c.var, &l.cdeps);
    l.has_range = flow_range_key(&l.c, &l.range_key) && flow_retested(e, l.range_key);
    l.has_last = last_value(&l.c, &l.last_x, &l.last_k) && flow_is_pure(l.c.bound, &l.last_deps, e);
    l.last_key = mix3(l.ckey, (uint64_t)loop->id, 0, 0x6c617374ULL);
  }
  GM_PUSH(e->loops, l);
  if (!l.counted || !flow_is_pure(l.c.start, &start_deps, e))
    return;
  /* the first iteration is the one where the counter equals its start */
  uint64_t x;
  long long k;
  canon(l.c.start, &x, &k);
  for (size_t i = 0; i < entering->len; i++)
    counter_eq_add(entering->items[i], &l, x, k, start_deps, 1);
}

void flow_loop_test(engine *e, state *s, int first, state_list *t, state_list *f) {
  const struct active_loop *l = &e->loops.items[e->loops.len - 1];
  const gm_node *cond = gm_kid(l->loop, 1);
  uint64_t deps = 0, cond_deps = 0;
  if (first && l->has_range && flow_is_pure(cond, &cond_deps, e) &&
      flow_is_pure(l->c.start, &deps, e) && flow_is_pure(l->c.bound, &deps, e)) {
    /* two loops over the same range both run or neither does */
    int known = flow_decision_find(s, l->range_key);
    if (known < 0) {
      state *other = flow_state_copy(e, s);
      flow_decision_add(s, l->range_key, deps, 1);
      flow_decision_add(other, l->range_key, deps, 0);
      route(e, other, 0, t, f);
      known = 1;
    }
    route(e, s, known, t, f);
    return;
  }
  int last = l->has_last ? flow_decision_find(s, l->last_key) : -1;
  if (last >= 0) {
    /* the previous iteration was the last one (c == B - 1 held), or was not */
    fact_drop(s, l->last_key);
    route(e, s, !last, t, f);
    return;
  }
  if (cond || l->loop->op == GM_LOOP_RANGE)
    flow_cond_split(e, s, cond, t, f);
  else
    route(e, s, 1, t, f);
}

void flow_loop_end(engine *e, state_list *exits) {
  const struct active_loop l = e->loops.items[--e->loops.len];
  if (!l.has_last)
    return;
  state_list kept = *exits;
  memset(exits, 0, sizeof *exits);
  for (size_t i = 0; i < kept.len; i++) {
    fact_drop(kept.items[i], l.last_key); /* it was about an iteration of this loop */
    flow_list_add(e, exits, kept.items[i]);
  }
  GM_VEC_FREE(kept);
}

int flow_counter_passed(const engine *e, const state *s, decision *out, int max) {
  const struct active_loop *l = e->stepping;
  int n = 0;
  if (!l->counted)
    return 0; /* no counter: the increment writes an ordinary variable */
  for (int i = 0; i < s->ndecisions && n < max; i++) {
    decision r = s->decisions[i];
    if (r.base != l->ckey || !(r.truth || r.passed))
      continue;
    r.truth = 0;
    r.passed = 1;
    out[n++] = r;
  }
  return n;
}

int flow_compare(const char *op, long long a, long long b, int *truth) {
  if (!op)
    return 0;
  if (strcmp(op, "==") == 0)
    *truth = a == b;
  else if (strcmp(op, "!=") == 0)
    *truth = a != b;
  else if (strcmp(op, "<") == 0)
    *truth = a < b;
  else if (strcmp(op, "<=") == 0)
    *truth = a <= b;
  else if (strcmp(op, ">") == 0)
    *truth = a > b;
  else if (strcmp(op, ">=") == 0)
    *truth = a >= b;
  else
    return 0; /* <=> */
  return 1;
}

/* The value a pure integer expression has on this path, where the path decides it: constants, a
 * variable a decision `v == K` holds for (a loop counter on the iteration where it equals its
 * start, a value tested before), and arithmetic, comparisons and negations of those. */
static int known_int(const engine *e, const state *s, const gm_node *n, long long *out, int depth) {
  if (!n || depth > 8)
    return 0;
  if (n->has_value) {
    *out = n->value;
    return 1;
  }
  long long a, b;
  switch (n->kind) {
  case GM_N_NULL:
    *out = 0; /* 0, false, an enumerator equal to 0 */
    return 1;
  case GM_N_VAR: {
    if (n->var < 0 || e->fn->vars[n->var].is_pointer)
      return 0;
    uint64_t deps;
    uint64_t key = var_key(e, n->var, &deps);
    for (int i = 0; i < s->ndecisions; i++) {
      const decision *d = &s->decisions[i];
      if (d->is_eq && d->truth && d->base == key) {
        *out = d->value;
        return 1;
      }
    }
    return 0;
  }
  case GM_N_ARITH:
    return n->nkids == 2 && known_int(e, s, n->kids[0], &a, depth + 1) &&
           known_int(e, s, n->kids[1], &b, depth + 1) && gm_arith_apply(n->op, a, b, out);
  case GM_N_NOT:
    if (!n->nkids || !known_int(e, s, n->kids[0], &a, depth + 1))
      return 0;
    *out = !a;
    return 1;
  case GM_N_CMP: {
    if (n->nkids != 2 || !known_int(e, s, n->kids[0], &a, depth + 1) ||
        !known_int(e, s, n->kids[1], &b, depth + 1))
      return 0;
    int truth;
    if (!flow_compare(n->op == '=' ? "==" : n->op == '!' ? "!=" : n->name, a, b, &truth))
      return 0;
    *out = truth;
    return 1;
  }
  default:
    return 0;
  }
}

/* Two addresses the engine knows, one of them storage no allocator made (`p != buf`, where a
 * small buffer is used until a larger one is allocated), or both the same allocation, or two
 * allocations both still held (`if (T != T_f) cudaFree(T);` after `T_f = T` on some paths):
 * equal only when they are the same. */
static int addresses_compared(const state *s, val a, val b) {
  int a_known = a.kind == V_STATIC || a.kind == V_ADDR || a.kind == V_OBJ;
  int b_known = b.kind == V_STATIC || b.kind == V_ADDR || b.kind == V_OBJ;
  if (a.kind == V_OBJ && b.kind == V_OBJ)
    return (a.ref == b.ref && a.offset == b.offset) ||
           (s->objs[a.ref].state == OBJ_LIVE && s->objs[b.ref].state == OBJ_LIVE);
  return a_known && b_known;
}

/* `a || b || c` tested again later: besides the decisions on each operand, the whole
 * condition's outcome is remembered. Paths that took it for different reasons (a, or b) may
 * merge and keep only the decisions they share; the whole outcome is one of them, so the second
 * test still agrees with the first (`if (a || b) cudaMallocManaged(&p, n); else p = malloc(n);
 * ...; if (a || b) cudaFree(p); else free(p);`). */
static int split_remembering_whole(engine *e, state *s, const gm_node *c, state_list *t,
                                   state_list *f) {
  uint64_t deps = 0;
  if (!flow_is_pure(c, &deps, e))
    return 0;
  uint64_t key = flow_node_key(c, 0);
  if (!flow_retested(e, key))
    return 0;
  int known = flow_decision_find(s, key);
  if (known >= 0) {
    route(e, s, known, t, f);
    return 1;
  }
  state_list taken[2] = {{0}, {0}};
  const gm_node *kid[2] = {c->kids[0], c->kids[1]};
  if (c->kind == GM_N_LAND) {
    state_list t1 = {0};
    flow_cond_split(e, s, kid[0], &t1, &taken[0]);
    for (size_t i = 0; i < t1.len; i++)
      flow_cond_split(e, t1.items[i], kid[1], &taken[1], &taken[0]);
    GM_VEC_FREE(t1);
  } else {
    state_list f1 = {0};
    flow_cond_split(e, s, kid[0], &taken[1], &f1);
    for (size_t i = 0; i < f1.len; i++)
      flow_cond_split(e, f1.items[i], kid[1], &taken[1], &taken[0]);
    GM_VEC_FREE(f1);
  }
  for (int truth = 0; truth < 2; truth++) {
    for (size_t i = 0; i < taken[truth].len; i++)
      flow_decision_add(taken[truth].items[i], key, deps, truth);
    flow_list_move_all(e, truth ? t : f, &taken[truth]);
  }
  return 1;
}

void flow_cond_split(engine *e, state *s, const gm_node *c, state_list *t, state_list *f) {
  if (!c) {
    route(e, s, 1, t, f);
    return;
  }
  long long value;
  if (known_int(e, s, c, &value, 0)) {
    route(e, s, value != 0, t, f); /* `(r & 1) == 0` on the iteration where r == 0 */
    return;
  }
  if ((c->kind == GM_N_LAND || c->kind == GM_N_LOR) && split_remembering_whole(e, s, c, t, f))
    return;
  switch (c->kind) {
  case GM_N_LAND: {
    state_list t1 = {0};
    flow_cond_split(e, s, c->kids[0], &t1, f);
    for (size_t i = 0; i < t1.len; i++)
      flow_cond_split(e, t1.items[i], c->kids[1], t, f);
    GM_VEC_FREE(t1);
    return;
  }
  case GM_N_LOR: {
    state_list f1 = {0};
    flow_cond_split(e, s, c->kids[0], t, &f1);
    for (size_t i = 0; i < f1.len; i++)
      flow_cond_split(e, f1.items[i], c->kids[1], t, f);
    GM_VEC_FREE(f1);
    return;
  }
  case GM_N_NOT:
    flow_cond_split(e, s, c->kids[0], f, t);
    return;
  case GM_N_COMMA: {
    for (int i = 0; i + 1 < c->nkids; i++)
      (void)flow_eval(e, s, c->kids[i]);
    if (s->dead) {
      flow_state_free(s);
      return;
    }
    const gm_node *decl = flow_condition_variable(c);
    if (decl) {
      branch_on_value(e, s, slot_get(s, decl->var), NULL, t, f);
      return;
    }
    flow_cond_split(e, s, c->nkids ? c->kids[c->nkids - 1] : NULL, t, f);
    return;
  }
  case GM_N_CMP:
    if ((c->op == '=' || c->op == '!') && split_on_counter(e, s, c, t, f))
      return;
    if (c->op == '=' || c->op == '!') {
      const gm_node *a = c->kids[0], *b = c->kids[1];
      val va = flow_eval(e, s, a);
      val vb = flow_eval(e, s, b);
      if (s->dead) {
        flow_state_free(s);
        return;
      }
      int a_null = flow_is_null_node(a) || va.kind == V_NULL;
      int b_null = flow_is_null_node(b) || vb.kind == V_NULL;
      if (a_null || b_null) {
        val other = a_null ? vb : va;
        const gm_node *other_node = flow_decided_node(a_null ? b : a);
        state_list nonzero = {0}, zero = {0};
        branch_on_value(e, s, other, other_node, &nonzero, &zero);
        if (gm_is_success_status(a_null ? a : b))
          for (size_t i = 0; i < nonzero.len; i++)
            nonzero.items[i]->error_path = 1; /* `err != cudaSuccess` */
        flow_list_move_all(e, c->op == '=' ? f : t, &nonzero);
        flow_list_move_all(e, c->op == '=' ? t : f, &zero);
        return;
      }
      if (flow_split_on_failure_test(e, s, c, va, vb, t, f))
        return;
      if (va.kind == V_RESULT && vb.kind == V_CONST && c->op == '=') {
        /* err == cudaErrorMemoryAllocation: the true branch is a failure */
        state *bad = flow_state_copy(e, s);
        if (bad->objs[va.ref].state == OBJ_LIVE)
          bad->objs[va.ref].state = OBJ_FAILED;
        bad->error_path = 1;
        route(e, bad, 1, t, f);
        route(e, s, 0, t, f);
        return;
      }
      if (addresses_compared(s, va, vb)) {
        int same = va.kind == vb.kind && va.ref == vb.ref && va.offset == vb.offset;
        route(e, s, same == (c->op == '='), t, f);
        return;
      }
      if (split_on_equality(e, s, c, t, f))
        return;
      branch_on_value(e, s, mk(V_UNKNOWN, 0), c, t, f);
      return;
    } else {
      val va = flow_eval(e, s, c->kids[0]);
      val vb = flow_eval(e, s, c->kids[1]);
      if (s->dead) {
        flow_state_free(s);
        return;
      }
      if (!flow_split_on_failure_test(e, s, c, va, vb, t, f))
        branch_on_value(e, s, mk(V_UNKNOWN, 0), c, t, f);
      return;
    }
  default:
    break;
  }
  val v = flow_eval(e, s, c);
  if (s->dead) {
    flow_state_free(s);
    return;
  }
  branch_on_value(e, s, v, c, t, f);
}
