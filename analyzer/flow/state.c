/* The flow engine's path state: objects and the slots that point at them, branch facts (plain
 * and equality) and what invalidates them, lists of states joined where paths meet, and the
 * slots that members and dereferences name. */
#include "flow/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- state helpers ---- */

static int slot_is_memory(const engine *e, int slot) {
  if (slot >= e->fn->nvars)
    return 1; /* a member or pointee path */
  const gm_var *v = &e->fn->vars[slot];
  return v->kind == GM_VAR_GLOBAL || v->kind == GM_VAR_REF || e->addr_taken[slot];
}

state *state_new(void) {
  return gm_xcalloc(1, sizeof(state));
}

state *state_copy(const state *s) {
  state *c = gm_xcalloc(1, sizeof *c);
  c->nobjs = c->capobjs = s->nobjs;
  c->objs = gm_xmalloc(sizeof(obj) * (size_t)(s->nobjs ? s->nobjs : 1));
  if (s->nobjs)
    memcpy(c->objs, s->objs, sizeof(obj) * (size_t)s->nobjs);
  c->nslots = s->nslots;
  c->slots = gm_xmalloc(sizeof(val) * (size_t)(s->nslots ? s->nslots : 1));
  c->exposed = gm_xmalloc((size_t)(s->nslots ? s->nslots : 1));
  if (s->nslots) {
    memcpy(c->slots, s->slots, sizeof(val) * (size_t)s->nslots);
    memcpy(c->exposed, s->exposed, (size_t)s->nslots);
  }
  c->nfacts = c->capfacts = s->nfacts;
  c->facts = gm_xmalloc(sizeof(fact_rec) * (size_t)(s->nfacts ? s->nfacts : 1));
  if (s->nfacts)
    memcpy(c->facts, s->facts, sizeof(fact_rec) * (size_t)s->nfacts);
  c->nghosts = c->capghosts = s->nghosts;
  c->ghosts = gm_xmalloc(sizeof(fact_rec) * (size_t)(s->nghosts ? s->nghosts : 1));
  if (s->nghosts)
    memcpy(c->ghosts, s->ghosts, sizeof(fact_rec) * (size_t)s->nghosts);
  c->dead = s->dead;
  c->error_path = s->error_path;
  c->latent = s->latent;
  c->skipped_by = s->skipped_by;
  c->digest = s->digest;
  c->has_digest = s->has_digest;
  return c;
}

void state_swap(state *a, state *b) {
  state t = *a;
  *a = *b;
  *b = t;
}

void state_free(state *s) {
  if (!s)
    return;
  free(s->objs);
  free(s->slots);
  free(s->exposed);
  free(s->facts);
  free(s->ghosts);
  free(s);
}

void list_free(state_list *l) {
  for (size_t i = 0; i < l->len; i++)
    state_free(l->items[i]);
  GM_VEC_FREE(*l);
}

void slot_set_raw(state *s, int slot, val v) {
  if (slot >= s->nslots) {
    s->slots = gm_xrealloc(s->slots, sizeof(val) * (size_t)(slot + 1));
    s->exposed = gm_xrealloc(s->exposed, (size_t)(slot + 1));
    for (int i = s->nslots; i <= slot; i++) {
      s->slots[i] = (val){V_UNKNOWN, 0, 0};
      s->exposed[i] = 0;
    }
    s->nslots = slot + 1;
  }
  s->slots[slot] = v;
}

int obj_new(state *s, obj o) {
  if (s->nobjs == s->capobjs) {
    s->capobjs = s->capobjs ? s->capobjs * 2 : 8;
    s->objs = gm_xrealloc(s->objs, sizeof(obj) * (size_t)s->capobjs);
  }
  s->objs[s->nobjs] = o;
  return s->nobjs++;
}

int obj_referenced(const state *s, int id, int except_slot) {
  for (int i = 0; i < s->nslots; i++)
    if (i != except_slot && (s->slots[i].kind == V_OBJ || s->slots[i].kind == V_RESULT) &&
        s->slots[i].ref == id && s->slots[i].kind == V_OBJ)
      return 1;
  return 0;
}

/* A call we do not model may write globals, and memory reachable from its arguments. */
static uint64_t arg_roots(const engine *e, const gm_node *n) {
  if (!n)
    return 0;
  uint64_t m = n->kind == GM_N_VAR ? slot_bit(e, n->var) : 0;
  for (int i = 0; i < n->nkids; i++)
    m |= arg_roots(e, n->kids[i]);
  return m;
}

enum { MAX_GHOSTS = 8 };

/* Keeps a decision a call may have changed, so that a later test going the other way is known to
 * rest on the call having changed it (latent). */
static void ghost_add(state *s, fact_rec f) {
  for (int i = 0; i < s->nghosts; i++)
    if (s->ghosts[i].key == f.key) {
      s->ghosts[i] = f;
      return;
    }
  if (s->nghosts == MAX_GHOSTS) {
    memmove(s->ghosts, s->ghosts + 1, sizeof(fact_rec) * (MAX_GHOSTS - 1));
    s->nghosts--;
  }
  if (s->nghosts == s->capghosts) {
    s->capghosts = s->capghosts ? s->capghosts * 2 : 4;
    s->ghosts = gm_xrealloc(s->ghosts, sizeof(fact_rec) * (size_t)s->capghosts);
  }
  s->ghosts[s->nghosts++] = f;
}

void drop_memory_facts(const engine *e, state *s, const gm_node *call) {
  uint64_t roots = 0;
  for (int i = 0; call && i < call->nkids; i++)
    if (call->arg_writes & (1u << (i < 31 ? i : 31)))
      roots |= arg_roots(e, call->kids[i]);
  int w = 0;
  for (int i = 0; i < s->nfacts; i++) {
    uint64_t d = s->facts[i].deps;
    if ((d & GLOBAL_DEP) || ((d & MEMORY_DEP) && (d & roots))) {
      ghost_add(s, s->facts[i]);
      continue;
    }
    s->facts[w++] = s->facts[i];
  }
  s->nfacts = w;
}

int ghost_find(const state *s, uint64_t key) {
  for (int i = 0; i < s->nghosts; i++)
    if (s->ghosts[i].key == key)
      return s->ghosts[i].truth;
  return -1;
}

static void fact_push(state *s, fact_rec f);

/* The member a path slot names last (`v2.out` names out), or NULL (`*v2`, a variable). */
static const char *member_written(const engine *e, int slot) {
  if (slot < e->fn->nvars || (size_t)(slot - e->fn->nvars) >= e->paths.len)
    return NULL;
  const char *text = e->paths.items[slot - e->fn->nvars];
  const char *dot = strrchr(text, '.');
  return dot && !strpbrk(dot, "*[]()") ? dot + 1 : NULL;
}

void facts_invalidate(const engine *e, state *s, int slot) {
  uint64_t bit = slot_bit(e, slot) | (slot_is_memory(e, slot) ? MEMORY_DEP | GLOBAL_DEP : 0);
  fact_rec passed[16]; /* a loop's increment: what its counter has moved past stays known */
  int npassed = e->stepping && e->stepping->c.var == slot ? counter_passed(e, s, passed, 16) : 0;
  /* a store to member `out` leaves decisions on other members (`l->out_pinned`) standing */
  const char *member = member_written(e, slot);
  int w = 0;
  for (int i = 0; i < s->nfacts; i++)
    if (!(s->facts[i].deps & bit) ||
        (member && !(members_read_by(e, &s->facts[i]) & member_bit(member))))
      s->facts[w++] = s->facts[i];
  s->nfacts = w;
  for (int i = 0; i < npassed; i++)
    fact_push(s, passed[i]);
}

static void fact_push(state *s, fact_rec f) {
  for (int i = 0; i < s->nghosts; i++)
    if (s->ghosts[i].key == f.key) { /* decided again: the old decision is history */
      s->ghosts[i] = s->ghosts[--s->nghosts];
      break;
    }
  if (s->nfacts == s->capfacts) {
    s->capfacts = s->capfacts ? s->capfacts * 2 : 4;
    s->facts = gm_xrealloc(s->facts, sizeof(fact_rec) * (size_t)s->capfacts);
  }
  s->facts[s->nfacts++] = f;
}

void fact_add(state *s, uint64_t key, uint64_t deps, int truth) {
  fact_push(s, (fact_rec){key, deps, 0, 0, (unsigned char)truth, 0, 0});
}

static uint64_t eq_key(uint64_t base, long long value) {
  return gm_hash64(&value, sizeof value, base ^ 0x9e3779b97f4a7c15ULL);
}

void eq_fact_add(state *s, uint64_t base, uint64_t deps, long long value, int truth) {
  fact_push(s, (fact_rec){eq_key(base, value), deps, base, value, (unsigned char)truth, 1, 0});
}

int fact_find(const state *s, uint64_t key) {
  for (int i = 0; i < s->nfacts; i++)
    if (s->facts[i].key == key)
      return s->facts[i].truth;
  /* `x` tested for truth after `x == K` decided it */
  for (int i = 0; i < s->nfacts; i++) {
    const fact_rec *f = &s->facts[i];
    if (f->is_eq && f->base == key && (f->truth || f->value == 0))
      return f->truth ? f->value != 0 : 1;
  }
  return -1;
}

int ghost_eq_find(const state *s, uint64_t base, long long value) {
  return ghost_find(s, eq_key(base, value));
}

/* Whether expression `base` equals `value` on this path: 1, 0, or -1 when nothing says. */
int eq_find(const state *s, uint64_t base, long long value) {
  uint64_t key = eq_key(base, value);
  for (int i = 0; i < s->nfacts; i++) {
    const fact_rec *f = &s->facts[i];
    if (f->key == key && f->is_eq)
      return f->truth;
    if (f->is_eq && f->base == base && f->truth && f->value != value)
      return 0; /* it equals another constant */
    if (!f->is_eq && f->key == base && (value == 0 || !f->truth))
      return value == 0 ? !f->truth : 0; /* `x` tested for truth: false means x == 0 */
  }
  return -1;
}

/* Drops objects nothing refers to any more and that have nothing left to report, so that
 * states reached by different paths compare equal. */
static void state_gc(state *s) {
  int *map = gm_xmalloc(sizeof(int) * (size_t)(s->nobjs ? s->nobjs : 1));
  /* one pass over the slots marks the objects a slot refers to (pointer, status or free) */
  for (int i = 0; i < s->nobjs; i++)
    map[i] = 0;
  for (int k = 0; k < s->nslots; k++) {
    const val *v = &s->slots[k];
    if ((v->kind == V_OBJ || v->kind == V_RESULT || v->kind == V_FREED || v->kind == V_OK) &&
        v->ref >= 0 && v->ref < s->nobjs)
      map[v->ref] = 1;
  }
  int w = 0;
  for (int i = 0; i < s->nobjs; i++) {
    obj *o = &s->objs[i];
    int keep = (o->state == OBJ_LIVE && !o->escaped && o->site) || map[i] || o->param >= 0 ||
               o->deref_param >= 0;
    map[i] = keep ? w : -1;
    if (keep)
      s->objs[w++] = *o;
  }
  s->nobjs = w;
  for (int k = 0; k < s->nslots; k++) {
    val *v = &s->slots[k];
    if (v->kind == V_OBJ || v->kind == V_RESULT || v->kind == V_FREED || v->kind == V_OK) {
      if (map[v->ref] < 0)
        *v = (val){V_UNKNOWN, 0, 0};
      else
        v->ref = map[v->ref];
    }
  }
  free(map);
}

static int fact_exact(const state *s, const fact_rec *f) {
  for (int i = 0; i < s->nfacts; i++)
    if (s->facts[i].key == f->key)
      return s->facts[i].truth == f->truth && s->facts[i].passed == f->passed;
  return 0;
}

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

/* What state_equal_as compares without the facts, folded into 64 bits: states it finds equal
 * have equal digests (slots past the end read as unknown, so only the others count), so a
 * list compares digests before states. */
static uint64_t memory_digest(const state *s) {
  uint64_t h = mix(0, (uint64_t)s->nobjs);
  for (int i = 0; i < s->nobjs; i++) {
    const obj *o = &s->objs[i];
    h = mix(h, (uint64_t)(uintptr_t)o->site);
    h = mix(h, (uint64_t)(uintptr_t)o->freed_at);
    h = mix(h, ((uint64_t)o->state << 32) | ((uint64_t)o->escaped << 40) |
                   ((uint64_t)o->nonnull << 48) | ((uint64_t)o->prefetched << 56) |
                   ((uint64_t)o->last_status << 60) | ((uint64_t)o->touch << 61));
    h = mix(h, ((uint64_t)(uint32_t)o->param << 32) | (uint32_t)o->deref_param);
  }
  for (int i = 0; i < s->nslots; i++) {
    const val *v = &s->slots[i];
    if (v->kind == V_UNKNOWN && !v->offset && !v->ref && !s->exposed[i])
      continue;
    h = mix(h, (uint64_t)(uint32_t)i << 32 | (uint64_t)v->kind << 16 | (uint64_t)v->offset << 8 |
                   s->exposed[i]);
    h = mix(h, (uint64_t)(uint32_t)v->ref);
  }
  return h;
}

static uint64_t digest_of(state *s) {
  if (!s->has_digest) { /* a state put in a list by hand (a function's entry state) */
    s->digest = memory_digest(s);
    s->has_digest = 1;
  }
  return s->digest;
}

/* Equal memory and pointers; with_facts: the same branch decisions too. */
static int state_equal_as(const state *a, const state *b, int with_facts) {
  if (a->nobjs != b->nobjs || (with_facts && a->nfacts != b->nfacts))
    return 0;
  for (int i = 0; i < a->nobjs; i++) {
    const obj *x = &a->objs[i], *y = &b->objs[i];
    if (x->site != y->site || x->state != y->state || x->escaped != y->escaped ||
        x->param != y->param || x->deref_param != y->deref_param || x->freed_at != y->freed_at ||
        x->nonnull != y->nonnull || x->prefetched != y->prefetched ||
        x->last_status != y->last_status || x->touch != y->touch)
      return 0;
  }
  /* the decisions first: states that met with equal memory differ there, and they are few */
  for (int i = 0; with_facts && i < a->nfacts; i++)
    if (!fact_exact(b, &a->facts[i]))
      return 0;
  int n = a->nslots > b->nslots ? a->nslots : b->nslots;
  for (int i = 0; i < n; i++) {
    val x = slot_get(a, i), y = slot_get(b, i);
    if (x.kind != y.kind || x.ref != y.ref || x.offset != y.offset)
      return 0;
    int ex = i < a->nslots && a->exposed[i], ey = i < b->nslots && b->exposed[i];
    if (ex != ey)
      return 0;
  }
  return 1;
}

int state_equal(const state *a, const state *b) {
  return state_equal_as(a, b, 1);
}

int state_equal_in_lists(state *a, state *b) {
  return digest_of(a) == digest_of(b) && state_equal_as(a, b, 1);
}

/* Folds s into kept, which differs from it only in branch decisions: only the decisions both
 * made survive (a join that forgets a correlation rather than a path). */
static void state_join_facts(state *kept, const state *s) {
  int w = 0;
  for (int i = 0; i < kept->nfacts; i++)
    if (fact_exact(s, &kept->facts[i]))
      kept->facts[w++] = kept->facts[i];
  kept->nfacts = w;
  if (!s->error_path)
    kept->error_path = 0;
  if (!s->latent)
    kept->latent = 0;
}

/* Appends s to l unless an equal state is there; keeps l within MAX_STATES. */
void list_add(engine *e, state_list *l, state *s) {
  if (s->dead) {
    state_free(s);
    return;
  }
  state_gc(s);
  /* s was changed on its way here: its digest is taken anew; those in l are as they came in */
  s->digest = memory_digest(s);
  s->has_digest = 1;
  for (size_t i = 0; i < l->len; i++)
    if (digest_of(l->items[i]) == s->digest && state_equal(l->items[i], s)) {
      if (!s->error_path)
        l->items[i]->error_path = 0; /* one of the merged paths is the normal one */
      if (!s->latent)
        l->items[i]->latent = 0; /* and one of them manifest */
      state_free(s);
      return;
    }
  if (l->len >= MAX_STATES) {
    for (size_t i = 0; i < l->len; i++)
      if (l->items[i]->digest == s->digest && state_equal_as(l->items[i], s, 0)) {
        state_join_facts(l->items[i], s);
        state_free(s);
        return;
      }
    if (!e->truncated)
      e->truncated = GM_CUT_PATHS;
    state_free(s);
    return;
  }
  GM_PUSH(*l, s);
}

void list_move_all(engine *e, state_list *to, state_list *from) {
  for (size_t i = 0; i < from->len; i++)
    list_add(e, to, from->items[i]);
  GM_VEC_FREE(*from);
}

/* ---- paths (pseudo-variables for members and dereferences) ---- */

char *path_text(engine *e, const gm_node *n) {
  if (!n)
    return gm_xstrdup("this");
  switch (n->kind) {
  case GM_N_VAR:
    return gm_xasprintf("v%d", n->var);
  case GM_N_FIELD: {
    char *base = path_text(e, gm_kid(n, 0));
    if (!base)
      return NULL;
    char *r = gm_xasprintf("%s.%s", base, n->name);
    free(base);
    return r;
  }
  case GM_N_DEREF: {
    char *base = path_text(e, gm_kid(n, 0));
    if (!base)
      return NULL;
    char *r = gm_xasprintf("*%s", base);
    free(base);
    return r;
  }
  default:
    return NULL;
  }
}

int path_slot(engine *e, char *text) {
  for (size_t i = 0; i < e->paths.len; i++)
    if (strcmp(e->paths.items[i], text) == 0) {
      free(text);
      return e->fn->nvars + (int)i;
    }
  GM_PUSH(e->paths, text);
  return e->fn->nvars + (int)e->paths.len - 1;
}

/* The slot an lvalue names, or -1. *owning: whether a pointer stored there is still owned by
 * this function (automatic locals and by-value parameters). */
int lvalue_slot(engine *e, const gm_node *n, int *owning) {
  *owning = 0;
  if (!n)
    return -1;
  if (n->kind == GM_N_VAR) {
    const gm_var *v = &e->fn->vars[n->var];
    *owning = v->kind == GM_VAR_LOCAL || v->kind == GM_VAR_PARAM;
    return n->var;
  }
  if (n->kind == GM_N_FIELD || n->kind == GM_N_DEREF) {
    char *t = path_text(e, n);
    *owning = t && aggregate_root(e, n) >= 0; /* desc.data, desc a local struct */
    return t ? path_slot(e, t) : -1;
  }
  return -1;
}

const char *slot_name(engine *e, int slot) {
  if (slot < e->fn->nvars)
    return e->fn->vars[slot].name;
  return aggregate_member_name(e, slot);
}

/* The parameter whose pointee a path slot names ("*vN" for parameter N), or -1. */
int slot_out_param(engine *e, int slot) {
  if (slot < e->fn->nvars) {
    const gm_var *v = &e->fn->vars[slot];
    return v->kind == GM_VAR_REF ? v->param_index : -1;
  }
  const char *t = e->paths.items[slot - e->fn->nvars];
  int var;
  char tail;
  if (sscanf(t, "*v%d%c", &var, &tail) == 1 && var < e->fn->nvars)
    return e->fn->vars[var].param_index;
  return -1;
}
