/* Branch conditions: splitting path states on a condition's truth (null tests, call statuses,
 * equalities with constants), and remembering decisions that a later test of the same
 * condition must agree with. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

int is_pure(const gm_node *n, uint64_t *deps, const engine *e) {
  if (!n)
    return 1;
  switch (n->kind) {
  case GM_N_CALL:
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
    *deps |= slot_bit(n->var);
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
    if (!is_pure(n->kids[i], deps, e))
      return 0;
  return 1;
}

uint64_t node_key(const gm_node *n, uint64_t h) {
  if (!n)
    return gm_hash64("~", 1, h);
  int parts[3] = {(int)n->kind, n->op, n->var};
  h = gm_hash64(parts, sizeof parts, h);
  if (n->name)
    h = gm_hash64(n->name, strlen(n->name), h);
  for (int i = 0; i < n->nkids; i++)
    h = node_key(n->kids[i], h);
  return h;
}

static void route(engine *e, state *s, int truth, state_list *t, state_list *f) {
  list_add(e, truth ? t : f, s);
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
      state *no = state_copy(s);
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
      state *bad = state_copy(s);
      bad->objs[v.ref].state = OBJ_FAILED; /* an error status: nothing was allocated */
      bad->error_path = 1;
      route(e, bad, 1, t, f);
      route(e, s, 0, t, f);
      return;
    }
    break;
  }
  case V_OK: {
    obj *o = &s->objs[v.ref];
    if (o->state == OBJ_LIVE) {
      state *bad = state_copy(s);
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
      state *bad = state_copy(s);
      bad->objs[v.ref].state = OBJ_FAILED;
      bad->error_path = 1;
      route(e, bad, 1, t, f);
      route(e, s, 0, t, f);
      return;
    }
    break;
  }
  default:
    break;
  }
  /* unknown: remember the decision so a later test of the same condition agrees */
  uint64_t deps = 0;
  if (cond && is_pure(cond, &deps, e)) {
    uint64_t key = node_key(cond, 0);
    int known = fact_find(s, key);
    if (known >= 0) {
      route(e, s, known, t, f);
      return;
    }
    state *other = state_copy(s);
    if (retested(e, key)) {
      fact_add(s, key, deps, 1);
      fact_add(other, key, deps, 0);
    }
    route(e, s, 1, t, f);
    route(e, other, 0, t, f);
    return;
  }
  state *other = state_copy(s); /* before routing: route() may free a duplicate state */
  route(e, s, 1, t, f);
  route(e, other, 0, t, f);
}

static int is_null_node(const gm_node *n) {
  return n && n->kind == GM_N_NULL;
}

/* cudaSuccess, CUDA_SUCCESS, CUBLAS_STATUS_SUCCESS, ncclSuccess: a status that says it worked. */
static int is_success_status(const gm_node *n) {
  return n && n->kind == GM_N_NULL && n->name &&
         (strstr(n->name, "Success") || strstr(n->name, "SUCCESS"));
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
  if (!is_pure(x, &deps, e))
    return 0;
  uint64_t base = node_key(x, 0);
  int known = eq_find(s, base, k);
  int equal_goes_to_t = c->op == '=';
  if (known >= 0) {
    route(e, s, known == equal_goes_to_t, t, f);
    return 1;
  }
  state *other = state_copy(s);
  if (retested(e, base)) {
    eq_fact_add(s, base, deps, k, 1);
    eq_fact_add(other, base, deps, k, 0);
  }
  route(e, s, equal_goes_to_t, t, f);
  route(e, other, !equal_goes_to_t, t, f);
  return 1;
}

/* Two addresses the engine knows, one of them storage no allocator made (`p != buf`, where a
 * small buffer is used until a larger one is allocated): equal only when they are the same. */
static int addresses_compared(val a, val b) {
  int a_known = a.kind == V_STATIC || a.kind == V_ADDR || a.kind == V_OBJ;
  int b_known = b.kind == V_STATIC || b.kind == V_ADDR || b.kind == V_OBJ;
  return a_known && b_known && (a.kind != V_OBJ || b.kind != V_OBJ);
}

void cond_split(engine *e, state *s, const gm_node *c, state_list *t, state_list *f) {
  if (!c) {
    route(e, s, 1, t, f);
    return;
  }
  switch (c->kind) {
  case GM_N_LAND: {
    state_list t1 = {0};
    cond_split(e, s, c->kids[0], &t1, f);
    for (size_t i = 0; i < t1.len; i++)
      cond_split(e, t1.items[i], c->kids[1], t, f);
    GM_VEC_FREE(t1);
    return;
  }
  case GM_N_LOR: {
    state_list f1 = {0};
    cond_split(e, s, c->kids[0], t, &f1);
    for (size_t i = 0; i < f1.len; i++)
      cond_split(e, f1.items[i], c->kids[1], t, f);
    GM_VEC_FREE(f1);
    return;
  }
  case GM_N_NOT:
    cond_split(e, s, c->kids[0], f, t);
    return;
  case GM_N_COMMA:
    for (int i = 0; i + 1 < c->nkids; i++)
      (void)flow_eval(e, s, c->kids[i]);
    if (s->dead) {
      state_free(s);
      return;
    }
    cond_split(e, s, c->nkids ? c->kids[c->nkids - 1] : NULL, t, f);
    return;
  case GM_N_CMP:
    if (c->op == '=' || c->op == '!') {
      const gm_node *a = c->kids[0], *b = c->kids[1];
      val va = flow_eval(e, s, a);
      val vb = flow_eval(e, s, b);
      if (s->dead) {
        state_free(s);
        return;
      }
      int a_null = is_null_node(a) || va.kind == V_NULL;
      int b_null = is_null_node(b) || vb.kind == V_NULL;
      if (a_null || b_null) {
        val other = a_null ? vb : va;
        const gm_node *other_node = a_null ? b : a;
        state_list nonzero = {0}, zero = {0};
        branch_on_value(e, s, other, other_node, &nonzero, &zero);
        if (is_success_status(a_null ? a : b))
          for (size_t i = 0; i < nonzero.len; i++)
            nonzero.items[i]->error_path = 1; /* `err != cudaSuccess` */
        list_move_all(e, c->op == '=' ? f : t, &nonzero);
        list_move_all(e, c->op == '=' ? t : f, &zero);
        return;
      }
      if (va.kind == V_RESULT && vb.kind == V_CONST && c->op == '=') {
        /* err == cudaErrorMemoryAllocation: the true branch is a failure */
        state *bad = state_copy(s);
        if (bad->objs[va.ref].state == OBJ_LIVE)
          bad->objs[va.ref].state = OBJ_FAILED;
        bad->error_path = 1;
        route(e, bad, 1, t, f);
        route(e, s, 0, t, f);
        return;
      }
      if (addresses_compared(va, vb)) {
        int same = va.kind == vb.kind && va.ref == vb.ref && va.offset == vb.offset;
        route(e, s, same == (c->op == '='), t, f);
        return;
      }
      if (split_on_equality(e, s, c, t, f))
        return;
      branch_on_value(e, s, mk(V_UNKNOWN, 0), c, t, f);
      return;
    }
    break;
  default:
    break;
  }
  val v = flow_eval(e, s, c);
  if (s->dead) {
    state_free(s);
    return;
  }
  branch_on_value(e, s, v, c, t, f);
}

/* What a condition decides about: the keys under which branch_on_value, split_on_equality and
 * a switch remember it. */
static void decision_keys(const gm_node *c, key_vec *out) {
  if (!c)
    return;
  switch (c->kind) {
  case GM_N_LAND:
  case GM_N_LOR:
    decision_keys(gm_kid(c, 0), out);
    decision_keys(gm_kid(c, 1), out);
    return;
  case GM_N_NOT:
    decision_keys(gm_kid(c, 0), out);
    return;
  case GM_N_COMMA:
    decision_keys(c->nkids ? c->kids[c->nkids - 1] : NULL, out);
    return;
  case GM_N_CMP: {
    const gm_node *a = gm_kid(c, 0), *b = gm_kid(c, 1);
    GM_PUSH(*out, node_key(c, 0));
    if (a && b && (is_null_node(a) || b->has_value))
      GM_PUSH(*out, node_key(is_null_node(a) ? b : a, 0));
    if (a && b && (is_null_node(b) || a->has_value))
      GM_PUSH(*out, node_key(is_null_node(b) ? a : b, 0));
    return;
  }
  default:
    GM_PUSH(*out, node_key(c, 0));
    return;
  }
}

static void collect_decisions(const gm_node *n, key_vec *out) {
  if (!n)
    return;
  if (n->kind == GM_N_IF || n->kind == GM_N_COND)
    decision_keys(gm_kid(n, 0), out);
  else if (n->kind == GM_N_LOOP)
    decision_keys(gm_kid(n, 1), out);
  else if (n->kind == GM_N_SWITCH && gm_kid(n, 0))
    GM_PUSH(*out, node_key(gm_kid(n, 0), 0));
  for (int i = 0; i < n->nkids; i++)
    collect_decisions(n->kids[i], out);
}

static int key_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Branch decisions are remembered only for conditions tested at two places or more: a state
 * that remembers a decision nobody asks about again only keeps equal paths from merging. */
void find_retested(engine *e, const gm_node *body) {
  key_vec all = {0};
  collect_decisions(body, &all);
  if (all.len)
    qsort(all.items, all.len, sizeof(uint64_t), key_cmp);
  e->retested.len = 0;
  for (size_t i = 1; i < all.len; i++)
    if (all.items[i] == all.items[i - 1] &&
        (!e->retested.len || e->retested.items[e->retested.len - 1] != all.items[i]))
      GM_PUSH(e->retested, all.items[i]);
  GM_VEC_FREE(all);
}

int retested(const engine *e, uint64_t key) {
  return bsearch(&key, e->retested.items, e->retested.len, sizeof(uint64_t), key_cmp) != NULL;
}
