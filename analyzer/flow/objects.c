/* Objects with destructors. A class's destructor is summarised by the members of `this` it
 * frees on every path; destroying an object frees what those members of it hold. The compiler
 * destroys a local object where its scope ends (the front end places those calls), and the copy
 * a by-value parameter gets when its call ends: a copy made member by member (an implicit or
 * defaulted copy constructor) holds the original's pointers, so its destructor frees the
 * original's buffers, which the original frees again when it is destroyed itself. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

int flow_is_destructor(const gm_func *fn) {
  return fn->name && fn->name[0] == '~';
}

void flow_observe_destructor_exit(engine *e, const state *s) {
  for (size_t i = 0; i < e->anchors.len; i++) {
    member_anchor *a = &e->anchors.items[i];
    val v = slot_get(s, a->slot);
    if (v.kind != V_OBJ)
      continue;
    const obj *o = &s->objs[v.ref];
    if (o->state == OBJ_FREED && o->freed_by) {
      a->freed++;
      a->row = o->freed_by;
      a->via = o->freed_via;
      a->inner = o->freed_inner;
    } else if (o->state == OBJ_FAILED) {
      a->freed++; /* `if (data) cudaFree(data)`: null, nothing to free */
    }
  }
}

void flow_summarise_member_frees(engine *e, summary *sum) {
  int exits = e->obs.exits, n = 0;
  member_free *frees = NULL;
  for (size_t i = 0; i < e->anchors.len; i++) {
    const member_anchor *a = &e->anchors.items[i];
    if (!exits || a->freed != exits || !a->row)
      continue;
    if (!frees)
      frees = gm_arena_alloc(e->tu->arena, sizeof *frees * e->anchors.len);
    member_free *f = &frees[n++];
    f->member = a->member;
    f->free_row = *a->row;
    f->free_row.name = sum->fn->name;
    f->via = a->via;
    f->inner = a->inner;
  }
  sum->member_frees = frees;
  sum->nmember_frees = n;
  e->anchors.len = 0;
}

int flow_destructor_frees(engine *e, const char *dtor_usr) {
  const summary *sum = flow_summary_for(e, dtor_usr);
  return sum && sum->nmember_frees;
}

/* The slot of member path `member` under the object lv names, or -1. */
static int member_slot(engine *e, const gm_node *lv, const char *member) {
  char *base = flow_path_text(e, lv);
  if (!base)
    return -1;
  int slot = flow_path_slot(e, gm_xasprintf("%s.%s", base, member));
  free(base);
  return slot;
}

void flow_destroy_object(engine *e, state *s, const gm_node *lv, const char *dtor_usr,
                         const gm_node *at) {
  const summary *sum = flow_summary_for(e, dtor_usr);
  if (lv && lv->kind == GM_N_CALL && lv->nkids == 1 && lv->in_system)
    lv = lv->kids[0]; /* std::move(obj): the copy is made from obj */
  if (!sum || !lv || (lv->kind != GM_N_VAR && lv->kind != GM_N_FIELD))
    return;
  for (int i = 0; i < sum->nmember_frees; i++) {
    const member_free *f = &sum->member_frees[i];
    int slot = member_slot(e, lv, f->member);
    if (slot < 0)
      continue;
    val v = slot_get(s, slot);
    if (v.kind == V_OBJ && s->objs[v.ref].state == OBJ_LIVE && s->objs[v.ref].family &&
        !gm_fn_frees_family(&f->free_row, s->objs[v.ref].family)) {
      flow_escape_val(s, v); /* the destructor's own wrong free: the member check reports it at
                                that free, once for all objects of the class */
      continue;
    }
    flow_do_free(e, s, at, v, &f->free_row, f->via, f->inner);
  }
}

void flow_construct_local(engine *e, state *s, const gm_node *decl) {
  const gm_var *var = &e->fn->vars[decl->var];
  const summary *sum = var->dtor_usr ? flow_summary_for(e, var->dtor_usr) : NULL;
  if (!sum || !sum->nmember_frees)
    return;
  const gm_node *init = gm_kid(decl, 0);
  /* `T b = a;` copies a's members: which of a's objects it shares is not followed */
  int copied = init && (init->kind == GM_N_VAR || init->kind == GM_N_FIELD);
  gm_node self = {0};
  self.kind = GM_N_VAR;
  self.var = decl->var;
  for (int i = 0; i < sum->nmember_frees; i++) {
    int slot = member_slot(e, &self, sum->member_frees[i].member);
    if (slot < 0)
      continue;
    val old = slot_get(s, slot);
    if (!copied && old.kind == V_OBJ && s->objs[old.ref].member_only &&
        s->objs[old.ref].state == OBJ_LIVE)
      continue; /* the constructor's own allocation (its summary fills the member): kept, so a
                   later set-up that allocates into the member again loses it */
    flow_escape_val(s, old);
    val v = mk(V_UNKNOWN, 0);
    if (!copied) {
      /* what the constructor left there: the object's own, freed by its destructor, so never
       * this function's leak */
      obj o = {0};
      o.param = -1;
      o.deref_param = -1;
      o.state = OBJ_LIVE;
      o.escaped = 1;
      o.touch = TOUCH_HOST;
      char *name = gm_xasprintf("%s.%s", var->name, sum->member_frees[i].member);
      o.owner = gm_arena_strdup(e->tu->arena, name);
      free(name);
      v = mk(V_OBJ, flow_obj_new(s, o));
    }
    flow_slot_set_raw(s, slot, v);
    flow_decisions_invalidate(e, s, slot);
  }
}

void flow_apply_member_frees(engine *e, state *s, const gm_node *call, const summary *sum) {
  if (!sum || !sum->nmember_frees || !flow_calls_on_this(call))
    return;
  for (int i = 0; i < sum->nmember_frees; i++) {
    const member_free *f = &sum->member_frees[i];
    int slot = flow_path_slot(e, gm_xasprintf("this.%s", f->member));
    flow_do_free(e, s, call, slot_get(s, slot), &f->free_row, f->via ? f->via : f->free_row.name,
                 f->inner);
  }
}

/* Forgets what the members of local object var hold. */
static void forget_object(engine *e, state *s, int var) {
  if (var < 0 || var >= e->fn->nvars || !e->fn->vars[var].dtor_usr)
    return;
  char *prefix = gm_xasprintf("v%d.", var);
  size_t len = strlen(prefix);
  for (size_t i = 0; i < e->paths.len; i++) {
    int slot = e->fn->nvars + (int)i;
    if (slot >= s->nslots || strncmp(e->paths.items[i], prefix, len) != 0)
      continue;
    flow_escape_val(s, s->slots[slot]);
    flow_slot_set_raw(s, slot, mk(V_UNKNOWN, 0));
    flow_decisions_invalidate(e, s, slot);
  }
  free(prefix);
}

void flow_forget_written_objects(engine *e, state *s, const gm_node *call) {
  if (call->implicit_dtor ||
      (call->in_system && call->nkids == 1 && call->name &&
       (strcmp(call->name, "move") == 0 || strcmp(call->name, "forward") == 0)))
    return; /* std::move(b) only names b */
  const gm_node *object = call->object;
  if (object && object->kind == GM_N_VAR)
    forget_object(e, s, object->var); /* `b.resize(n)` may reallocate b.data */
  for (int i = 0; i < call->nkids; i++) {
    const gm_node *a = call->kids[i];
    if (a && a->kind == GM_N_ADDR && gm_kid(a, 0) && a->kids[0]->kind == GM_N_VAR)
      forget_object(e, s, a->kids[0]->var);
    else if (a && a->kind == GM_N_VAR && (call->arg_writes & (1u << (i < 31 ? i : 31))))
      forget_object(e, s, a->var); /* bound to a non-const reference */
  }
}
