/* Members of objects the function did not make: those reached from a pointer or reference
 * parameter, from `this`, or from a global. What such a member holds on entry belongs to the
 * object, so it is never this function's leak; but freeing it twice is a double free, and
 * overwriting a block this function put there loses it. Calls that may write the object forget
 * what its members held (a helper may have reallocated them). */
#include "flow/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The root of a path text ("v3.d", "this.w", "*v1"): ROOT_THIS, the variable's index when it is
 * a pointer or reference parameter or a global, else ROOT_NONE (a local, an aggregate). */
enum { ROOT_NONE = -1, ROOT_THIS = -2 };

static int path_root(const engine *e, const char *t, const char **rest) {
  while (*t == '*')
    t++;
  if (strncmp(t, "this.", 5) == 0) {
    *rest = t + 4;
    return ROOT_THIS;
  }
  int var, used = 0;
  if (sscanf(t, "v%d%n", &var, &used) != 1 || var < 0 || var >= e->fn->nvars)
    return ROOT_NONE;
  *rest = t + used;
  const gm_var *v = &e->fn->vars[var];
  if (v->kind == GM_VAR_GLOBAL || v->kind == GM_VAR_REF ||
      (v->kind == GM_VAR_PARAM && v->is_pointer))
    return var;
  return ROOT_NONE;
}

static int slot_root(const engine *e, int slot, const char **rest) {
  if (slot < e->fn->nvars)
    return ROOT_NONE;
  return path_root(e, e->paths.items[slot - e->fn->nvars], rest);
}

/* A cast's operand: `(void **)&p->d` names p->d. */
static const gm_node *strip_casts(const gm_node *n) {
  while (n && n->kind == GM_N_OTHER && n->nkids == 1 && !n->invalid)
    n = n->kids[0];
  return n;
}

int flow_outside_member_slot(const engine *e, int slot) {
  const char *rest;
  return slot >= e->fn->nvars && slot_root(e, slot, &rest) != ROOT_NONE && *rest == '.';
}

const char *flow_outside_member_name(engine *e, int slot) {
  const char *rest;
  int root = slot_root(e, slot, &rest);
  if (root == ROOT_NONE || *rest != '.')
    return NULL;
  const char *t = e->paths.items[slot - e->fn->nvars];
  int derefs = 0;
  while (t[derefs] == '*')
    derefs++;
  char *name;
  if (root == ROOT_THIS) {
    name = gm_xasprintf("%.*s%s", derefs, t, rest + 1); /* a method's own member, as written */
  } else {
    const gm_var *v = &e->fn->vars[root];
    int arrow = v->kind == GM_VAR_PARAM; /* a pointer parameter: `p->d` */
    name = gm_xasprintf("%.*s%s%s%s", derefs, t, v->name, arrow ? "->" : ".", rest + 1);
  }
  const char *kept = gm_arena_strdup(e->tu->arena, name);
  free(name);
  return kept;
}

/* What the member (or the global pointer) held on entry: the object's, never reported as a
 * leak (escaped), but freed at most once on a path. */
static void seed_slot(engine *e, state *s, int slot) {
  if (slot < 0 || (slot < s->nslots && s->slots[slot].kind != V_UNKNOWN))
    return;
  obj o = {0};
  o.param = -1;
  o.deref_param = -1;
  o.state = OBJ_LIVE;
  o.escaped = 1;
  o.on_entry = 1;
  o.touch = TOUCH_HOST;
  o.owner = slot < e->fn->nvars ? e->fn->vars[slot].name : flow_outside_member_name(e, slot);
  flow_slot_set_raw(s, slot, mk(V_OBJ, flow_obj_new(s, o)));
}

/* The slot of a freed argument when it is an outside member or a global pointer, else -1. */
static int freed_outside_slot(engine *e, const gm_node *arg) {
  while (arg && arg->kind == GM_N_OTHER && arg->nkids == 1 && !arg->invalid)
    arg = arg->kids[0]; /* a cast: `(void *)c->a` */
  if (!arg)
    return -1;
  if (arg->kind == GM_N_VAR) {
    const gm_var *v = &e->fn->vars[arg->var];
    return v->kind == GM_VAR_GLOBAL && v->is_handle && !v->is_array ? arg->var : -1;
  }
  if (arg->kind != GM_N_FIELD)
    return -1;
  int owning;
  int slot = flow_lvalue_slot(e, arg, &owning);
  return slot >= 0 && flow_outside_member_slot(e, slot) ? slot : -1;
}

struct seed_ctx {
  engine *e;
  state *s;
  int anchor; /* summarising: seed members of this alone, each with an anchor */
};

/* A member of this ("this.data", "this.in.ptr") the function frees: seeded, and an anchor slot
 * that no code names keeps its object for the exits to read (a method's member frees). */
static void seed_anchored(engine *e, state *s, int slot) {
  const char *rest;
  if (slot < 0 || slot_root(e, slot, &rest) != ROOT_THIS || *rest != '.' ||
      e->paths.items[slot - e->fn->nvars][0] == '*')
    return;
  for (size_t i = 0; i < e->anchors.len; i++)
    if (e->anchors.items[i].member && strcmp(e->anchors.items[i].member, rest + 1) == 0)
      return;
  seed_slot(e, s, slot);
  member_anchor a = {0};
  a.member = gm_arena_strdup(e->tu->arena, rest + 1);
  a.slot = flow_path_slot(e, gm_xasprintf("#%s", e->paths.items[slot - e->fn->nvars]));
  flow_slot_set_raw(s, a.slot, slot_get(s, slot));
  GM_PUSH(e->anchors, a);
}

static void seed_one(struct seed_ctx *c, int slot) {
  if (c->anchor)
    seed_anchored(c->e, c->s, slot);
  else
    seed_slot(c->e, c->s, slot);
}

static void seed_visit(const gm_node *n, void *arg) {
  struct seed_ctx *c = arg;
  if (n->kind != GM_N_CALL)
    return;
  const gm_fn *row = n->fn;
  if (row && row->kind == GM_FN_FREE) {
    if (row->ptr_arg >= 0 && row->ptr_arg < n->nkids)
      seed_one(c, freed_outside_slot(c->e, n->kids[row->ptr_arg]));
    return;
  }
  const summary *sum = row ? NULL : flow_summary_for(c->e, n->callee_usr);
  for (int i = 0; sum && i < n->nkids && i < sum->nparams; i++)
    if (sum->params[i].effect == P_FREES)
      seed_one(c, freed_outside_slot(c->e, n->kids[i]));
  for (int i = 0; c->anchor && sum && i < sum->nmember_frees && flow_calls_on_this(n); i++)
    seed_one(c, flow_path_slot(c->e, gm_xasprintf("this.%s", sum->member_frees[i].member)));
}

void flow_seed_entry_members(engine *e, state *s) {
  struct seed_ctx c = {e, s, 0};
  gm_walk(e->fn->body, seed_visit, &c);
}

void flow_seed_this_members(engine *e, state *s) {
  struct seed_ctx c = {e, s, 1};
  gm_walk(e->fn->body, seed_visit, &c);
}

int flow_is_this(const gm_node *n) {
  return n && n->kind == GM_N_CONST && n->name && strcmp(n->name, "this") == 0;
}

int flow_calls_on_this(const gm_node *call) {
  return call->is_method && !call->object && !call->implicit_dtor &&
         (!call->callee_member || !gm_kid(call->callee_member, 0) ||
          flow_is_this(gm_kid(call->callee_member, 0)));
}

/* Whether the call may write the members of root: it is given the root's pointer (with leave to
 * write through it), it is a method called on this object, or, for a global, it is code of the
 * program, which may write any global. */
static int call_may_write(const engine *e, const gm_node *call, int root) {
  if (root >= 0 && e->fn->vars[root].kind == GM_VAR_GLOBAL)
    return 1;
  if (root == ROOT_THIS && flow_calls_on_this(call))
    return 1; /* `reset()`, `this->reset()` */
  for (int i = 0; i < call->nkids; i++) {
    const gm_node *a = call->kids[i];
    unsigned bit = 1u << (i < 31 ? i : 31);
    int names_root =
        root == ROOT_THIS ? flow_is_this(a) : a && a->kind == GM_N_VAR && a->var == root;
    if (names_root && (call->arg_writes & bit))
      return 1;
  }
  return 0;
}

static void forget_slot(engine *e, state *s, int slot) {
  obj *o = &s->objs[s->slots[slot].ref];
  o->escaped = 1; /* the callee may have freed or kept it */
  o->member_only = 0;
  flow_slot_set_raw(s, slot, mk(V_UNKNOWN, 0));
  flow_decisions_invalidate(e, s, slot);
}

void flow_forget_members_of(engine *e, state *s, int var) {
  for (size_t i = 0; i < e->paths.len; i++) {
    int slot = e->fn->nvars + (int)i;
    const char *rest;
    if (slot < s->nslots && s->slots[slot].kind == V_OBJ && slot_root(e, slot, &rest) == var)
      forget_slot(e, s, slot);
  }
}

void flow_forget_declared_members(engine *e, state *s, int var) {
  for (size_t i = 0; i < e->paths.len; i++) {
    int slot = e->fn->nvars + (int)i, root, used = 0;
    if (slot < s->nslots && s->slots[slot].kind == V_OBJ &&
        s->objs[s->slots[slot].ref].member_only &&
        sscanf(e->paths.items[i], "v%d%n", &root, &used) == 1 && root == var &&
        e->paths.items[i][used] == '.')
      forget_slot(e, s, slot);
  }
}

/* The variable whose object a call is handed: the object of a method (`b.release()`,
 * `p->release()`), or an argument's (`release(&b)`, `release(p)`, `release(b)`); -1. */
static int handed_root(const gm_node *call, int i) {
  const gm_node *a = i < 0 ? call->object : strip_casts(gm_kid(call, i));
  if (a && a->kind == GM_N_ADDR)
    a = strip_casts(gm_kid(a, 0));
  return a && (a->kind == GM_N_VAR || a->kind == GM_N_FIELD) ? gm_root_var(a) : -1;
}

/* A call handed an object may free or reallocate its members: what a member effect or a store
 * put there (member_only) is no longer known to be there. */
static void forget_handed_objects(engine *e, state *s, const gm_node *call) {
  for (int i = -1; i < call->nkids; i++) {
    int var = handed_root(call, i);
    if (var < 0)
      continue;
    for (size_t k = 0; k < e->paths.len; k++) {
      int slot = e->fn->nvars + (int)k, root, used = 0;
      const char *t = e->paths.items[k];
      if (slot < s->nslots && s->slots[slot].kind == V_OBJ &&
          s->objs[s->slots[slot].ref].member_only && sscanf(t, "v%d%n", &root, &used) == 1 &&
          root == var && t[used] == '.')
        forget_slot(e, s, slot);
    }
  }
}

void flow_forget_outside_members(engine *e, state *s, const gm_node *call) {
  if (call->in_system || (call->fn && call->fn->kind != GM_FN_SINK))
    return; /* the toolkit and the table's calls do not reassign a program's members */
  if (!call->is_launch)
    forget_handed_objects(e, s, call);
  for (size_t i = 0; i < e->paths.len; i++) {
    int slot = e->fn->nvars + (int)i;
    if (slot >= s->nslots || s->slots[slot].kind != V_OBJ)
      continue;
    const char *rest;
    int root = slot_root(e, slot, &rest);
    if (root != ROOT_NONE && *rest == '.' && call_may_write(e, call, root))
      forget_slot(e, s, slot);
  }
  for (int v = 0; v < e->fn->nvars && v < s->nslots; v++) {
    const gm_var *var = &e->fn->vars[v];
    if (var->kind != GM_VAR_GLOBAL || s->slots[v].kind != V_OBJ ||
        !s->objs[s->slots[v].ref].on_entry)
      continue;
    flow_slot_set_raw(s, v, mk(V_UNKNOWN, 0));
    flow_decisions_invalidate(e, s, v);
  }
}

/* ---- Members a function allocates into: what they held on entry (issue 39) ----
 * A method, or a function given the object, that allocates into a member which still holds a
 * block from an earlier call loses that block unless it frees or tests it first. Summarising,
 * what such a member held on entry is an object of its own: overwriting it untested clobbers
 * it, and a block left there on every exit fills it (gm_member_summary). A caller that calls
 * such a function on a member its own code filled (an earlier call, the same call on the loop's
 * previous iteration, a direct allocation) loses the earlier block there. */

/* The parameter index (-1: this) and member of a slot one member below this or a pointer or
 * reference parameter ("this.d", "v2.d"). */
static int effect_root(const engine *e, int slot, int *root, const char **member) {
  if (slot < e->fn->nvars || e->paths.items[slot - e->fn->nvars][0] == '*')
    return 0;
  const char *rest;
  int r = slot_root(e, slot, &rest);
  if (r == ROOT_NONE || *rest != '.' || strpbrk(rest + 1, ".*"))
    return 0;
  *member = rest + 1;
  if (r == ROOT_THIS) {
    *root = -1;
    return 1;
  }
  const gm_var *v = &e->fn->vars[r];
  *root = v->param_index;
  return v->kind != GM_VAR_GLOBAL && v->param_index >= 0;
}

/* The path of the object a call's member effect of root names at the call: the object of a
 * method (`img.alloc()`, `p->alloc()`, `alloc()` on this), or the argument (`init(&h)`,
 * `init(p)`, `init(h)` by reference). NULL where it is no path (`imgs[i].alloc()`). */
static char *receiver_text(engine *e, const gm_node *call, int root) {
  if (root < 0) {
    if (call->object)
      return flow_path_text(e, call->object);
    if (!call->is_method)
      return NULL;
    if (!call->callee_member) { /* a constructor: of the variable it initialises (`Grid g(n)`) */
      const gm_node *up = call->parent;
      return up && up->kind == GM_N_DECL && gm_kid(up, 0) == call ? gm_xasprintf("v%d", up->var)
                                                                  : NULL;
    }
    const gm_node *base = gm_kid(call->callee_member, 0);
    return !base || flow_is_this(base) ? gm_xstrdup("this") : NULL;
  }
  const gm_node *a = strip_casts(gm_kid(call, root));
  if (a && a->kind == GM_N_ADDR)
    a = strip_casts(gm_kid(a, 0));
  if (!a || (a->kind != GM_N_VAR && a->kind != GM_N_FIELD && !flow_is_this(a)))
    return NULL;
  return flow_path_text(e, a);
}

static int effect_slot(engine *e, const gm_node *call, const member_effect *m) {
  char *base = receiver_text(e, call, m->root);
  if (!base)
    return -1;
  char *text = gm_xasprintf("%s.%s", base, m->member);
  free(base);
  return flow_path_slot(e, text);
}

/* The observations of a member slot (one that effect_root names). */
static struct member_obs *member_obs_of(engine *e, int slot) {
  for (size_t i = 0; i < e->obs.members.len; i++)
    if (e->obs.members.items[i].slot == slot)
      return &e->obs.members.items[i];
  struct member_obs m = {slot, -1, NULL, 0, 0, NULL, NULL};
  (void)effect_root(e, slot, &m.root, &m.member);
  m.member = gm_arena_strdup(e->tu->arena, m.member);
  GM_PUSH(e->obs.members, m);
  return &e->obs.members.items[e->obs.members.len - 1];
}

/* What the member held on entry, live and never tested on this path. */
static int untested_entry_block(const state *s, val v) {
  if (v.kind != V_OBJ || v.ref >= s->nobjs)
    return 0;
  const obj *o = &s->objs[v.ref];
  return o->on_entry && o->state == OBJ_LIVE && !o->nonnull;
}

static void seed_member_target(engine *e, state *s, int slot) {
  int root;
  const char *member;
  if (slot >= 0 && effect_root(e, slot, &root, &member))
    seed_slot(e, s, slot);
}

static void seed_out_arg(engine *e, state *s, const gm_node *arg) {
  arg = strip_casts(arg);
  if (!arg || arg->kind != GM_N_ADDR || !gm_kid(arg, 0) || arg->kids[0]->kind != GM_N_FIELD)
    return;
  int owning;
  seed_member_target(e, s, flow_lvalue_slot(e, arg->kids[0], &owning));
}

static void seed_filled_visit(const gm_node *n, void *arg) {
  struct seed_ctx *c = arg;
  if (n->kind != GM_N_CALL)
    return;
  const gm_fn *row = n->fn;
  if (row) {
    if (row->kind == GM_FN_ALLOC && row->ptr_arg >= 0 && row->ptr_arg < n->nkids && !row->ptr_field)
      seed_out_arg(c->e, c->s, n->kids[row->ptr_arg]);
    return;
  }
  const summary *sum = flow_summary_for(c->e, n->callee_usr);
  for (int i = 0; sum && i < n->nkids && i < sum->nparams; i++)
    if (sum->params[i].effect == P_OUT_ALLOC)
      seed_out_arg(c->e, c->s, n->kids[i]);
  for (int k = 0; sum && k < sum->nmembers; k++)
    seed_member_target(c->e, c->s, effect_slot(c->e, n, &sum->members[k]));
}

void flow_seed_filled_members(engine *e, state *s) {
  struct seed_ctx c = {e, s, 0};
  gm_walk(e->fn->body, seed_filled_visit, &c);
}

void flow_note_member_store(engine *e, state *s, int slot, val old) {
  int root;
  const char *member;
  if (untested_entry_block(s, old) && !flow_obj_referenced(s, old.ref) &&
      effect_root(e, slot, &root, &member))
    member_obs_of(e, slot)->clobbered = 1;
}

void flow_observe_member_exit(engine *e, state *s) {
  for (int slot = e->fn->nvars; slot < s->nslots; slot++) {
    val v = s->slots[slot];
    int root;
    const char *member;
    if (v.kind != V_OBJ || !effect_root(e, slot, &root, &member))
      continue;
    const obj *o = &s->objs[v.ref];
    if (!o->site || !o->member_only || o->state == OBJ_FREED)
      continue;
    struct member_obs *m = member_obs_of(e, slot);
    m->fresh++;
    m->family = o->family;
    m->inner = o->inner_site;
  }
}

int flow_member_effects_finish(engine *e, const summary *old, summary *sum) {
  summary_obs *ob = &e->obs;
  member_effect *list =
      gm_arena_alloc(e->tu->arena, sizeof *list * (ob->members.len ? ob->members.len : 1));
  int n = 0;
  for (size_t i = 0; i < ob->members.len; i++) {
    const struct member_obs *m = &ob->members.items[i];
    int fills = ob->exits && m->fresh == ob->exits && !e->truncated;
    int clobbers = m->clobbered && !sum->fn->is_constructor; /* a new object holds nothing */
    if (fills || clobbers)
      list[n++] = (member_effect){m->root,
                                  m->member,
                                  (unsigned char)clobbers,
                                  (unsigned char)fills,
                                  fills ? m->family : NULL,
                                  fills ? m->inner : NULL};
  }
  GM_VEC_FREE(ob->members);
  sum->members = list;
  sum->nmembers = n;
  int changed = !old->known || old->nmembers != n;
  for (int k = 0; k < n && !changed; k++)
    changed = old->members[k].root != list[k].root || old->members[k].fills != list[k].fills ||
              old->members[k].clobbers != list[k].clobbers ||
              strcmp(old->members[k].member, list[k].member) != 0;
  return changed;
}

struct member_before {
  int n;
  int *slots;
  val *vals;
  unsigned char *owned; /* the block there is this function's or its object's to lose */
  unsigned char *entry; /* summarising: what the member held on entry, untested */
};

member_before *flow_member_effects_before(engine *e, state *s, const gm_node *call,
                                          const summary *sum) {
  if (!sum || !sum->nmembers)
    return NULL;
  member_before *b = gm_xcalloc(1, sizeof *b);
  b->n = sum->nmembers;
  b->slots = gm_xcalloc((size_t)b->n, sizeof(int));
  b->vals = gm_xcalloc((size_t)b->n, sizeof(val));
  b->owned = gm_xcalloc((size_t)b->n, 1);
  b->entry = gm_xcalloc((size_t)b->n, 1);
  for (int k = 0; k < b->n; k++) {
    int slot = b->slots[k] = effect_slot(e, call, &sum->members[k]);
    val v = b->vals[k] = slot_get(s, slot);
    if (slot < 0 || v.kind != V_OBJ)
      continue;
    const obj *o = &s->objs[v.ref];
    int aggregate_owned = !o->escaped && flow_aggregate_member_name(e, slot) &&
                          !flow_aggregate_exposed(e, s, slot); /* `Buf b; cudaMalloc(&b.d)` */
    b->owned[k] = o->site && o->state == OBJ_LIVE && (o->member_only || aggregate_owned);
    b->entry[k] = untested_entry_block(s, v);
  }
  return b;
}

/* A name for the member at slot, for messages: as flow_slot_name gives it, else as written. */
static const char *member_name(engine *e, int slot, const gm_node *call, const member_effect *m) {
  const char *name = flow_slot_name(e, slot);
  if (name)
    return name;
  const gm_node *base = m->root < 0 ? call->object : strip_casts(gm_kid(call, m->root));
  if (base && base->kind == GM_N_ADDR)
    base = strip_casts(gm_kid(base, 0));
  if (base && base->kind == GM_N_VAR) {
    char *t = gm_xasprintf("%s.%s", e->fn->vars[base->var].name, m->member);
    name = gm_arena_strdup(e->tu->arena, t);
    free(t);
    return name;
  }
  return m->member;
}

void flow_member_effects_apply(engine *e, state *s, const gm_node *call, const summary *sum,
                               member_before *b) {
  if (!b)
    return;
  for (int k = 0; k < b->n && !s->dead; k++) {
    const member_effect *m = &sum->members[k];
    int slot = b->slots[k];
    if (slot < 0)
      continue;
    val now = mk(V_UNKNOWN, 0);
    if (m->fills) {
      obj o = {0};
      o.site = call;
      o.inner_site = m->inner ? m->inner : call;
      o.family = m->family;
      o.param = -1;
      o.deref_param = -1;
      o.state = OBJ_LIVE;
      o.escaped = 1;     /* the object owns it */
      o.member_only = 1; /* and loses it when the member is overwritten */
      o.touch = m->family && m->family->managed ? TOUCH_NONE : TOUCH_HOST;
      o.owner = member_name(e, slot, call, m);
      now = mk(V_OBJ, flow_obj_new(s, o));
    }
    flow_slot_set_raw(s, slot, now);
    flow_decisions_invalidate(e, s, slot);
    val old = b->vals[k];
    if (!m->clobbers || old.kind != V_OBJ)
      continue;
    int root;
    const char *member;
    if (e->summary_mode && b->entry[k] && effect_root(e, slot, &root, &member))
      member_obs_of(e, slot)->clobbered = 1; /* a method that calls one: it clobbers too */
    if (b->owned[k] && s->objs[old.ref].state == OBJ_LIVE && !flow_obj_referenced(s, old.ref))
      flow_report_leak(e, s, old.ref, call, GM_EXIT_OVERWRITE);
  }
  free(b->slots);
  free(b->vals);
  free(b->owned);
  free(b->entry);
  free(b);
}
