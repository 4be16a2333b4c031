/* The flow engine's path state: objects and the slots that point at them, branch decisions (plain
 * and equality) and what invalidates them, lists of states joined where paths meet, and the
 * slots that members and dereferences name. */
#include "flow/engine.h"

#include <assert.h>
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

state *flow_state_new(void) {
  state *s = gm_xcalloc(1, sizeof(state));
  s->status_obj = -1;
  return s;
}

/* Duplicates a block of n elements (a block of one when n is 0, so a copy never holds NULL). */
static void *dup_array(const void *items, int n, size_t size) {
  void *c = gm_xmalloc(size * (size_t)(n ? n : 1));
  if (n)
    memcpy(c, items, size * (size_t)n);
  return c;
}

state *flow_state_copy(engine *e, const state *s) {
  flow_charge(e, s->nobjs + s->nslots + s->ndecisions);
  state *c = gm_xmalloc(sizeof *c);
  *c = *s; /* every field, the arrays replaced below by copies of their own */
  c->objs = dup_array(s->objs, s->nobjs, sizeof(obj));
  c->capobjs = s->nobjs;
  c->slots = dup_array(s->slots, s->nslots, sizeof(val));
  c->exposed = dup_array(s->exposed, s->nslots, 1);
  c->decisions = dup_array(s->decisions, s->ndecisions, sizeof(decision));
  c->capdecisions = s->ndecisions;
  c->ghosts = dup_array(s->ghosts, s->nghosts, sizeof(decision));
  c->capghosts = s->nghosts;
  c->unnamed = dup_array(s->unnamed, s->nunnamed, sizeof(int));
  c->capunnamed = s->nunnamed;
  return c;
}

void flow_state_swap(state *a, state *b) {
  state t = *a;
  *a = *b;
  *b = t;
}

void flow_state_free(state *s) {
  if (!s)
    return;
  free(s->objs);
  free(s->slots);
  free(s->exposed);
  free(s->decisions);
  free(s->ghosts);
  free(s->unnamed);
  free(s);
}

void flow_list_free(state_list *l) {
  for (size_t i = 0; i < l->len; i++)
    flow_state_free(l->items[i]);
  GM_VEC_FREE(*l);
}

/* Puts an object that no slot names in the state's list of them (once). */
static void queue_unnamed(state *s, int id) {
  if (s->objs[id].queued)
    return;
  s->objs[id].queued = 1;
  if (s->nunnamed == s->capunnamed) {
    s->capunnamed = s->capunnamed ? s->capunnamed * 2 : 8;
    s->unnamed = gm_xrealloc(s->unnamed, sizeof(int) * (size_t)s->capunnamed);
  }
  s->unnamed[s->nunnamed++] = id;
}

/* Whether a value names an object: a pointer to it, its status or its free's result. */
static int names_obj(const state *s, val v) {
  return (v.kind == V_OBJ || v.kind == V_RESULT || v.kind == V_FREED || v.kind == V_OK) &&
         v.ref >= 0 && v.ref < s->nobjs;
}

void flow_slot_set_raw(state *s, int slot, val v) {
  if (slot >= s->nslots) {
    s->slots = gm_xrealloc(s->slots, sizeof(val) * (size_t)(slot + 1));
    s->exposed = gm_xrealloc(s->exposed, (size_t)(slot + 1));
    for (int i = s->nslots; i <= slot; i++) {
      s->slots[i] = (val){V_UNKNOWN, 0, 0};
      s->exposed[i] = 0;
    }
    s->nslots = slot + 1;
  }
  if (names_obj(s, v)) {
    s->objs[v.ref].refs++;
    s->objs[v.ref].pointers += v.kind == V_OBJ;
  }
  val old = s->slots[slot];
  if (names_obj(s, old)) {
    obj *o = &s->objs[old.ref];
    o->pointers -= old.kind == V_OBJ;
    if (--o->refs == 0)
      queue_unnamed(s, old.ref);
  }
  s->slots[slot] = v;
}

int flow_obj_new(state *s, obj o) {
  if (s->nobjs == s->capobjs) {
    s->capobjs = s->capobjs ? s->capobjs * 2 : 8;
    s->objs = gm_xrealloc(s->objs, sizeof(obj) * (size_t)s->capobjs);
  }
  o.refs = o.pointers = 0;
  o.queued = 0;
  s->objs[s->nobjs] = o;
  queue_unnamed(s, s->nobjs);
  return s->nobjs++;
}

int flow_obj_referenced(const state *s, int id) {
  return id >= 0 && id < s->nobjs && s->objs[id].pointers > 0;
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
static void ghost_add(state *s, decision f) {
  for (int i = 0; i < s->nghosts; i++)
    if (s->ghosts[i].key == f.key) {
      s->ghosts[i] = f;
      return;
    }
  if (s->nghosts == MAX_GHOSTS) {
    memmove(s->ghosts, s->ghosts + 1, sizeof(decision) * (MAX_GHOSTS - 1));
    s->nghosts--;
  }
  if (s->nghosts == s->capghosts) {
    s->capghosts = s->capghosts ? s->capghosts * 2 : 4;
    s->ghosts = gm_xrealloc(s->ghosts, sizeof(decision) * (size_t)s->capghosts);
  }
  s->ghosts[s->nghosts++] = f;
}

void flow_drop_memory_decisions(const engine *e, state *s, const gm_node *call) {
  uint64_t roots = 0;
  for (int i = 0; call && i < call->nkids; i++)
    if (call->arg_writes & (1u << (i < 31 ? i : 31)))
      roots |= arg_roots(e, call->kids[i]);
  int w = 0;
  for (int i = 0; i < s->ndecisions; i++) {
    uint64_t d = s->decisions[i].deps;
    if ((d & GLOBAL_DEP) || ((d & MEMORY_DEP) && (d & roots))) {
      ghost_add(s, s->decisions[i]);
      continue;
    }
    s->decisions[w++] = s->decisions[i];
  }
  s->ndecisions = w;
}

int flow_ghost_find(const state *s, uint64_t key) {
  for (int i = 0; i < s->nghosts; i++)
    if (s->ghosts[i].key == key)
      return s->ghosts[i].truth;
  return -1;
}

static void decision_push(state *s, decision f);

/* The member a path slot names last (`v2.out` names out), or NULL (`*v2`, a variable). */
static const char *member_written(const engine *e, int slot) {
  if (slot < e->fn->nvars || (size_t)(slot - e->fn->nvars) >= e->paths.len)
    return NULL;
  const char *text = e->paths.items[slot - e->fn->nvars];
  const char *dot = strrchr(text, '.');
  return dot && !strpbrk(dot, "*[]()") ? dot + 1 : NULL;
}

void flow_decisions_invalidate(const engine *e, state *s, int slot) {
  uint64_t bit = slot_bit(e, slot) | (slot_is_memory(e, slot) ? MEMORY_DEP | GLOBAL_DEP : 0);
  decision passed[16]; /* a loop's increment: what its counter has moved past stays known */
  int npassed =
      e->stepping && e->stepping->c.var == slot ? flow_counter_passed(e, s, passed, 16) : 0;
  /* a store to member `out` leaves decisions on other members (`l->out_pinned`) standing */
  const char *member = member_written(e, slot);
  int w = 0;
  for (int i = 0; i < s->ndecisions; i++)
    if (!(s->decisions[i].deps & bit) ||
        (member && !(flow_members_read_by(e, &s->decisions[i]) & flow_member_bit(member))))
      s->decisions[w++] = s->decisions[i];
  s->ndecisions = w;
  for (int i = 0; i < npassed; i++)
    decision_push(s, passed[i]);
}

static void decision_push(state *s, decision f) {
  for (int i = 0; i < s->nghosts; i++)
    if (s->ghosts[i].key == f.key) { /* decided again: the old decision is history */
      s->ghosts[i] = s->ghosts[--s->nghosts];
      break;
    }
  if (s->ndecisions == s->capdecisions) {
    s->capdecisions = s->capdecisions ? s->capdecisions * 2 : 4;
    s->decisions = gm_xrealloc(s->decisions, sizeof(decision) * (size_t)s->capdecisions);
  }
  s->decisions[s->ndecisions++] = f;
}

void flow_decision_add(state *s, uint64_t key, uint64_t deps, int truth) {
  decision_push(s, (decision){.key = key, .deps = deps, .truth = (unsigned char)truth});
}

static uint64_t eq_key(uint64_t base, long long value) {
  return gm_hash64(&value, sizeof value, base ^ 0x9e3779b97f4a7c15ULL);
}

void flow_eq_decision_add(state *s, uint64_t base, uint64_t deps, long long value, int truth) {
  decision_push(s, (decision){.key = eq_key(base, value),
                              .deps = deps,
                              .base = base,
                              .value = value,
                              .truth = (unsigned char)truth,
                              .is_eq = 1});
}

int flow_decision_find(const state *s, uint64_t key) {
  for (int i = 0; i < s->ndecisions; i++)
    if (s->decisions[i].key == key)
      return s->decisions[i].truth;
  /* `x` tested for truth after `x == K` decided it */
  for (int i = 0; i < s->ndecisions; i++) {
    const decision *f = &s->decisions[i];
    if (f->is_eq && f->base == key && (f->truth || f->value == 0))
      return f->truth ? f->value != 0 : 1;
  }
  return -1;
}

int flow_ghost_eq_find(const state *s, uint64_t base, long long value) {
  return flow_ghost_find(s, eq_key(base, value));
}

/* Whether expression `base` equals `value` on this path: 1, 0, or -1 when nothing says. */
int flow_eq_find(const state *s, uint64_t base, long long value) {
  uint64_t key = eq_key(base, value);
  for (int i = 0; i < s->ndecisions; i++) {
    const decision *f = &s->decisions[i];
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
static int obj_kept_alone(const obj *o) {
  return (o->state == OBJ_LIVE && !o->escaped && o->site) || o->param >= 0 || o->deref_param >= 0;
}

/* Only objects that no slot names can go (flow_slot_set_raw lists them), so a statement looks at
 * those alone; the objects and slots are passed over only when one goes, to close the gap. */
static void state_gc(engine *e, state *s) {
  if (!s->nunnamed)
    return;
  flow_charge(e, s->nunnamed);
  int w = 0, gone = 0;
  for (int i = 0; i < s->nunnamed; i++) {
    obj *o = &s->objs[s->unnamed[i]];
    o->queued = 0;
    if (o->refs)
      continue; /* named again since */
    if (obj_kept_alone(o)) {
      o->queued = 1;
      s->unnamed[w++] = s->unnamed[i];
    } else {
      o->queued = 2; /* goes */
      gone = 1;
    }
  }
  s->nunnamed = w;
  if (!gone)
    return;
  flow_charge(e, s->nobjs + s->nslots);
  int before = s->nobjs;
  int *map = gm_xmalloc(sizeof(int) * (size_t)before);
  w = 0;
  for (int i = 0; i < before; i++) {
    map[i] = s->objs[i].queued == 2 ? -1 : w;
    if (map[i] >= 0)
      s->objs[w++] = s->objs[i];
  }
  s->nobjs = w;
  /* nothing names a collected object: the slots and lists only move to the new places */
  for (int k = 0; k < s->nslots; k++) {
    val *v = &s->slots[k];
    if ((v->kind == V_OBJ || v->kind == V_RESULT || v->kind == V_FREED || v->kind == V_OK) &&
        v->ref >= 0 && v->ref < before) {
      assert(map[v->ref] >= 0);
      v->ref = map[v->ref];
    }
  }
  for (int i = 0; i < s->nunnamed; i++)
    s->unnamed[i] = map[s->unnamed[i]];
  s->status_obj = s->status_obj >= 0 && s->status_obj < before ? map[s->status_obj] : -1;
  free(map);
}

/* Comparing and hashing by the identity lists of engine.h; every field converts to a key. */
#define FIELD_KEY(x) ((uint64_t)(uintptr_t)(x))
#define SAME_FIELD(type, name) &&x->name == y->name
#define MIX_FIELD(type, name) h = mix(h, FIELD_KEY(o->name));

static int same_val(const val *x, const val *y) {
  return 1 VAL_IDENTITY(SAME_FIELD);
}

static int same_obj(const obj *x, const obj *y) {
  return 1 OBJ_IDENTITY(SAME_FIELD);
}

static int same_decision(const decision *x, const decision *y) {
  return 1 DECISION_IDENTITY(SAME_FIELD);
}

static int decision_exact(const state *s, const decision *f) {
  for (int i = 0; i < s->ndecisions; i++)
    if (s->decisions[i].key == f->key)
      return same_decision(&s->decisions[i], f);
  return 0;
}

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

static uint64_t mix_obj(uint64_t h, const obj *o) {
  OBJ_IDENTITY(MIX_FIELD)
  return h;
}

static uint64_t mix_val(uint64_t h, const val *o) {
  VAL_IDENTITY(MIX_FIELD)
  return h;
}

/* What state_equal_as compares without the decisions, folded into 64 bits: states it finds equal
 * have equal digests (slots past the end read as unknown, so only the others count), so a
 * list compares digests before states. */
static uint64_t memory_digest(const state *s) {
  static const val unknown = {V_UNKNOWN, 0, 0};
  uint64_t h = mix(0, (uint64_t)s->nobjs);
  for (int i = 0; i < s->nobjs; i++)
    h = mix_obj(h, &s->objs[i]);
  for (int i = 0; i < s->nslots; i++) {
    if (same_val(&s->slots[i], &unknown) && !s->exposed[i])
      continue;
    h = mix(h, ((uint64_t)(uint32_t)i << 8) | s->exposed[i]);
    h = mix_val(h, &s->slots[i]);
  }
  return h;
}

/* A state's digest, taken once it is in a list and first compared: it does not change while it
 * waits there. */
static uint64_t digest_of(engine *e, state *s) {
  if (!s->has_digest) { /* a state put in a list by hand (a function's entry state) */
    flow_charge(e, s->nobjs + s->nslots);
    s->digest = memory_digest(s);
    s->has_digest = 1;
  }
  assert(s->digest == memory_digest(s));
  return s->digest;
}

/* Equal memory and pointers; with_decisions: the same branch decisions too. *walked: how many
 * objects, decisions and slots it looked at before it knew. */
static int state_equal_as(const state *a, const state *b, int with_decisions, long *walked) {
  *walked = 0;
  if (a->nobjs != b->nobjs || (with_decisions && a->ndecisions != b->ndecisions))
    return 0;
  for (int i = 0; i < a->nobjs; i++, ++*walked)
    if (!same_obj(&a->objs[i], &b->objs[i]))
      return 0;
  /* the decisions first: states that met with equal memory differ there, and they are few */
  for (int i = 0; with_decisions && i < a->ndecisions; i++, ++*walked)
    if (!decision_exact(b, &a->decisions[i]))
      return 0;
  int n = a->nslots > b->nslots ? a->nslots : b->nslots;
  for (int i = 0; i < n; i++, ++*walked) {
    val x = slot_get(a, i), y = slot_get(b, i);
    int ex = i < a->nslots && a->exposed[i], ey = i < b->nslots && b->exposed[i];
    if (!same_val(&x, &y) || ex != ey)
      return 0;
  }
  assert(memory_digest(a) == memory_digest(b)); /* the digest hashes what is compared here */
  return 1;
}

/* Whether two states in lists are one (with_decisions) or differ only in their decisions: their
 * digests first, then the elements, as far as the comparison goes, counted in the budget. */
static int equal_in_lists(engine *e, state *a, state *b, int with_decisions) {
  if (digest_of(e, a) != digest_of(e, b))
    return 0;
  long walked;
  int same = state_equal_as(a, b, with_decisions, &walked);
  flow_charge(e, walked);
  return same;
}

int flow_state_equal_in_lists(engine *e, state *a, state *b) {
  return equal_in_lists(e, a, b, 1);
}

void flow_guess_branch(state *taken, state *other, const gm_node *cond) {
  if (taken->guess || taken->guess_many) {
    taken->guess_many = other->guess_many = 1; /* a guess on a guess: kept latent */
    return;
  }
  taken->guess = other->guess = cond;
  taken->guess_way = 1;
  other->guess_way = 0;
}

int flow_state_latent(const state *s) {
  return s->latent || s->guess || s->guess_many;
}

/* kept and s meet as one state: what rests on a guess still does only if both paths rest on the
 * same way of it; the two ways of one untyped branch met give a path that rests on neither. */
static void join_guesses(state *kept, const state *s) {
  if (!s->guess && !s->guess_many) { /* one of them manifest */
    kept->guess = NULL;
    kept->guess_many = 0;
  } else if (!kept->guess && !kept->guess_many) {
    return;
  } else if (kept->guess_many || s->guess_many || kept->guess != s->guess) {
    kept->guess = NULL; /* on different guesses: latent for good */
    kept->guess_many = 1;
  } else if (kept->guess_way != s->guess_way) {
    kept->guess = NULL; /* both ways met */
  }
}

/* Folds s into kept, which differs from it only in branch decisions: only the decisions both
 * made survive (a join that forgets a correlation rather than a path). */
static void state_join_decisions(state *kept, const state *s) {
  int w = 0;
  for (int i = 0; i < kept->ndecisions; i++)
    if (decision_exact(s, &kept->decisions[i]))
      kept->decisions[w++] = kept->decisions[i];
  kept->ndecisions = w;
  if (!s->error_path)
    kept->error_path = 0;
  if (!s->latent)
    kept->latent = 0;
  join_guesses(kept, s);
}

/* A value that says nothing of memory: an integer, a flag, a pointer known null or not known.
 * States that differ only in such values hold the same objects the same way. */
static int scalar_val(val v) {
  return v.kind == V_UNKNOWN || v.kind == V_CONST || v.kind == V_NULL;
}

/* Whether every decision of a that b lacks reads no guard (engine.h). */
static int decisions_unguarded(const engine *e, const state *a, const state *b, long *walked) {
  for (int i = 0; i < a->ndecisions; i++, ++*walked)
    if ((a->decisions[i].deps & e->guard_bits) && !decision_exact(b, &a->decisions[i]))
      return 0;
  return 1;
}

/* Whether kept and s hold the same objects through the same pointers and differ at most in
 * scalars that decide no allocation or free (counters, option variables set in a getopt loop's
 * cases), in their values and in the decisions on them. */
static int joinable_scalars(engine *e, const state *kept, const state *s) {
  if (!e->guards || kept->nobjs != s->nobjs)
    return 0;
  long walked = 0;
  int same = 1;
  for (int i = 0; same && i < kept->nobjs; i++, walked++)
    same = same_obj(&kept->objs[i], &s->objs[i]);
  int n = kept->nslots > s->nslots ? kept->nslots : s->nslots;
  for (int i = 0; same && i < n; i++, walked++) {
    val x = slot_get(kept, i), y = slot_get(s, i);
    int ex = i < kept->nslots && kept->exposed[i], ey = i < s->nslots && s->exposed[i];
    int guard = i < e->fn->nvars ? e->guards[i] : e->guard_paths;
    same = ex == ey && (same_val(&x, &y) || (!guard && scalar_val(x) && scalar_val(y)));
  }
  same =
      same && decisions_unguarded(e, kept, s, &walked) && decisions_unguarded(e, s, kept, &walked);
  flow_charge(e, walked);
  return same;
}

/* Folds s into kept where only scalars tell them apart: those become unknown, and only the
 * decisions both made survive (a condition that came out the same on both paths holds on the
 * joined one, whatever the scalars it read). The paths go on as one, less precise about what the
 * scalars held but with every object they hold, so the leaks at their ends are still seen. */
static void state_join_scalars(state *kept, const state *s) {
  int n = kept->nslots > s->nslots ? kept->nslots : s->nslots;
  for (int i = 0; i < n; i++) {
    val x = slot_get(kept, i), y = slot_get(s, i);
    if (!same_val(&x, &y))
      flow_slot_set_raw(kept, i, mk(V_UNKNOWN, 0));
  }
  state_join_decisions(kept, s);
  kept->has_digest = 0; /* changed: taken anew when next compared */
}

/* Appends s to l unless an equal state is there; keeps l within MAX_STATES: past it, a state
 * differing from one in l only in its decisions or its scalars is joined with it, and only one
 * that holds different memory is dropped. */
void flow_list_add(engine *e, state_list *l, state *s) {
  if (s->dead) {
    flow_state_free(s);
    return;
  }
  state_gc(e, s);
  /* s was changed on its way here: its digest is taken anew, when first compared (a list that
   * holds one state, as in straight-line code, never needs it: hashing a function of thousands
   * of allocations at each statement made it quadratic); those in l are as they came in */
  s->has_digest = 0;
  for (size_t i = 0; i < l->len; i++)
    if (equal_in_lists(e, l->items[i], s, 1)) {
      if (!s->error_path)
        l->items[i]->error_path = 0; /* one of the merged paths is the normal one */
      if (!s->latent)
        l->items[i]->latent = 0; /* and one of them manifest */
      join_guesses(l->items[i], s);
      flow_state_free(s);
      return;
    }
  if (l->len >= SCALAR_JOIN_STATES)
    for (size_t i = 0; i < l->len; i++)
      if (joinable_scalars(e, l->items[i], s)) {
        state_join_scalars(l->items[i], s);
        flow_state_free(s);
        return;
      }
  if (l->len >= MAX_STATES) {
    for (size_t i = 0; i < l->len; i++)
      if (equal_in_lists(e, l->items[i], s, 0)) {
        state_join_decisions(l->items[i], s);
        flow_state_free(s);
        return;
      }
    if (!e->truncated)
      e->truncated = GM_CUT_PATHS;
    flow_state_free(s);
    return;
  }
  GM_PUSH(*l, s);
}

void flow_list_move_all(engine *e, state_list *to, state_list *from) {
  for (size_t i = 0; i < from->len; i++)
    flow_list_add(e, to, from->items[i]);
  GM_VEC_FREE(*from);
}

/* ---- paths (pseudo-variables for members and dereferences) ---- */

char *flow_path_text(engine *e, const gm_node *n) {
  if (!n || flow_is_this(n))
    return gm_xstrdup("this");
  switch (n->kind) {
  case GM_N_VAR:
    return gm_xasprintf("v%d", n->var);
  case GM_N_FIELD: {
    char *base = flow_path_text(e, gm_kid(n, 0));
    if (!base)
      return NULL;
    char *r = gm_xasprintf("%s.%s", base, n->name);
    free(base);
    return r;
  }
  case GM_N_DEREF: {
    char *base = flow_path_text(e, gm_kid(n, 0));
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

int flow_path_slot(engine *e, char *text) {
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
int flow_lvalue_slot(engine *e, const gm_node *n, int *owning) {
  *owning = 0;
  if (!n)
    return -1;
  if (n->kind == GM_N_VAR) {
    const gm_var *v = &e->fn->vars[n->var];
    *owning = v->kind == GM_VAR_LOCAL || v->kind == GM_VAR_PARAM;
    return n->var;
  }
  if (n->kind == GM_N_FIELD || n->kind == GM_N_DEREF) {
    char *t = flow_path_text(e, n);
    *owning = t && flow_aggregate_root(e, n) >= 0; /* desc.data, desc a local struct */
    return t ? flow_path_slot(e, t) : -1;
  }
  return -1;
}

const char *flow_slot_name(engine *e, int slot) {
  if (slot < e->fn->nvars)
    return e->fn->vars[slot].name;
  const char *outside = flow_outside_member_name(e, slot);
  return outside ? outside : flow_aggregate_member_name(e, slot);
}

/* The parameter whose pointee a path slot names ("*vN" for parameter N), or -1. */
int flow_slot_out_param(engine *e, int slot) {
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
