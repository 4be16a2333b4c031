/* Remembered decisions: which conditions are tested at two places or more (only those are
 * remembered on a path, see cond.c), the bits their variables get in fact dependencies, and the
 * members each reads, so that a store to another member keeps the decision. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

uint64_t flow_member_bit(const char *name) {
  return 1ULL << (gm_hash64(name, strlen(name), 0) % 64);
}

static uint64_t members_of(const engine *e, const gm_node *n) {
  if (!n)
    return 0;
  if (n->kind == GM_N_DEREF || n->kind == GM_N_INDEX)
    return ALL_MEMBERS; /* `*p`, `a[i]`: any store through a pointer may write it */
  if (n->kind == GM_N_VAR && n->var >= 0 && e->fn->vars[n->var].kind == GM_VAR_REF)
    return ALL_MEMBERS; /* a reference may name a member */
  uint64_t m = n->kind == GM_N_FIELD && n->name ? flow_member_bit(n->name) : 0;
  for (int i = 0; i < n->nkids; i++)
    m |= members_of(e, n->kids[i]);
  return m;
}

uint64_t flow_members_read_by(const engine *e, const decision *f) {
  uint64_t key = f->is_eq ? f->base : f->key;
  for (size_t i = 0; i < e->reads.len; i++)
    if (e->reads.items[i].key == key)
      return e->reads.items[i].members;
  return ALL_MEMBERS;
}

static void push_key(engine *e, key_vec *out, const gm_node *n) {
  uint64_t key = flow_node_key(n, 0);
  GM_PUSH(*out, key);
  if (e)
    GM_PUSH(e->reads, ((decision_reads){key, members_of(e, n)}));
}

/* What a condition decides about: the keys under which branch_on_value, split_on_equality and
 * a switch remember it (and, given an engine, what each reads). */
static void decision_keys(engine *e, const gm_node *c, key_vec *out) {
  if (!c)
    return;
  switch (c->kind) {
  case GM_N_LAND:
  case GM_N_LOR:
    push_key(e, out, c); /* the whole outcome, as split_remembering_whole keeps it */
    decision_keys(e, gm_kid(c, 0), out);
    decision_keys(e, gm_kid(c, 1), out);
    return;
  case GM_N_NOT:
    decision_keys(e, gm_kid(c, 0), out);
    return;
  case GM_N_COMMA:
    decision_keys(e, c->nkids ? c->kids[c->nkids - 1] : NULL, out);
    return;
  case GM_N_CMP: {
    const gm_node *a = gm_kid(c, 0), *b = gm_kid(c, 1);
    push_key(e, out, c);
    if (a && b && (flow_is_null_node(a) || b->has_value))
      push_key(e, out, flow_decided_node(flow_is_null_node(a) ? b : a));
    if (a && b && (flow_is_null_node(b) || a->has_value))
      push_key(e, out, flow_decided_node(flow_is_null_node(b) ? a : b));
    return;
  }
  default:
    push_key(e, out, c);
    return;
  }
}

static void collect_decisions(engine *e, const gm_node *n, key_vec *out) {
  if (!n)
    return;
  if (n->kind == GM_N_IF || n->kind == GM_N_COND)
    decision_keys(e, gm_kid(n, 0), out);
  else if (n->kind == GM_N_LOOP) {
    decision_keys(e, gm_kid(n, 1), out);
    gm_counter c;
    uint64_t range;
    if (gm_loop_counter(n, &c) && flow_range_key(&c, &range))
      GM_PUSH(*out, range);
  } else if (n->kind == GM_N_SWITCH && gm_kid(n, 0))
    push_key(e, out, gm_kid(n, 0));
  for (int i = 0; i < n->nkids; i++)
    collect_decisions(e, n->kids[i], out);
}

static int key_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void give_bits(engine *e, const gm_node *n, int *next) {
  if (!n)
    return;
  if (n->kind == GM_N_VAR && n->var >= 0 && (size_t)n->var < e->dep_bit.len &&
      e->dep_bit.items[n->var] == SHARED_BIT && *next < SHARED_BIT)
    e->dep_bit.items[n->var] = (unsigned char)(*next)++;
  for (int i = 0; i < n->nkids; i++)
    give_bits(e, n->kids[i], next);
}

static int decided_again(const engine *e, const gm_node *c) {
  key_vec keys = {0};
  decision_keys(NULL, c, &keys);
  int again = 0;
  for (size_t i = 0; i < keys.len && !again; i++)
    again = flow_retested(e, keys.items[i]);
  GM_VEC_FREE(keys);
  return again;
}

/* The variables that remembered decisions read get bits of their own (slot_bit): those of
 * conditions tested twice, and loop counters with what they are compared with. */
static void bits_for_decisions(engine *e, const gm_node *n, int *next) {
  if (!n)
    return;
  gm_counter c;
  if ((n->kind == GM_N_IF || n->kind == GM_N_COND) && decided_again(e, gm_kid(n, 0)))
    give_bits(e, gm_kid(n, 0), next);
  else if (n->kind == GM_N_SWITCH && gm_kid(n, 0) &&
           flow_retested(e, flow_node_key(gm_kid(n, 0), 0)))
    give_bits(e, gm_kid(n, 0), next);
  if (n->kind == GM_N_LOOP && gm_loop_counter(n, &c)) {
    gm_node ref = {0};
    ref.kind = GM_N_VAR;
    ref.var = c.var;
    give_bits(e, &ref, next);
    give_bits(e, c.start, next);
    give_bits(e, c.bound, next);
  }
  if (n->kind == GM_N_LOOP && decided_again(e, gm_kid(n, 1)))
    give_bits(e, gm_kid(n, 1), next);
  if (n->kind == GM_N_CMP && (n->op == '=' || n->op == '!'))
    for (int i = 0; i < 2; i++) {
      const gm_node *side = gm_kid(n, i);
      if (side && side->kind == GM_N_VAR && side->var < (int)e->dep_bit.len &&
          e->dep_bit.items[side->var] != SHARED_BIT)
        give_bits(e, n, next); /* `c == V` with c a counter given a bit above */
    }
  for (int i = 0; i < n->nkids; i++)
    bits_for_decisions(e, n->kids[i], next);
}

/* Branch decisions are remembered only for conditions tested at two places or more: a state
 * that remembers a decision nobody asks about again only keeps equal paths from merging. */
void flow_find_retested(engine *e, const gm_node *body) {
  key_vec all = {0};
  e->reads.len = 0;
  collect_decisions(e, body, &all);
  if (all.len)
    qsort(all.items, all.len, sizeof(uint64_t), key_cmp);
  e->retested.len = 0;
  for (size_t i = 1; i < all.len; i++)
    if (all.items[i] == all.items[i - 1] &&
        (!e->retested.len || e->retested.items[e->retested.len - 1] != all.items[i]))
      GM_PUSH(e->retested, all.items[i]);
  GM_VEC_FREE(all);
  size_t kept = 0; /* what only the remembered decisions read, once each */
  for (size_t i = 0; i < e->reads.len; i++) {
    decision_reads r = e->reads.items[i];
    int seen = 0;
    for (size_t j = 0; j < kept && !seen; j++)
      seen = e->reads.items[j].key == r.key;
    if (!seen && flow_retested(e, r.key))
      e->reads.items[kept++] = r;
  }
  e->reads.len = kept;
  e->dep_bit.len = 0;
  for (int v = 0; v < e->fn->nvars; v++)
    GM_PUSH(e->dep_bit, SHARED_BIT);
  int next = 0;
  bits_for_decisions(e, body, &next);
}

int flow_retested(const engine *e, uint64_t key) {
  /* bsearch on a null array is undefined even when it is empty */
  return e->retested.len > 0 &&
         bsearch(&key, e->retested.items, e->retested.len, sizeof(uint64_t), key_cmp) != NULL;
}
