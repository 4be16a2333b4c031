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

void flow_forget_outside_members(engine *e, state *s, const gm_node *call) {
  if (call->in_system || (call->fn && call->fn->kind != GM_FN_SINK))
    return; /* the toolkit and the table's calls do not reassign a program's members */
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
