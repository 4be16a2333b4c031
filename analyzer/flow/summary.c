/* Summaries of same-file functions: what each exit of a helper shows about its result and its
 * parameters, folded into per-parameter effects (P_FREES, P_FREES_DEREF, P_OUT_ALLOC,
 * P_ESCAPES) that a call to the helper applies. */
#include "flow/engine.h"

#include "model/patterns.h"

#include <stdlib.h>
#include <string.h>

/* Another file's summary in the engine's form: families and frees found by name in this file's
 * table; what the table does not know makes the parameter an escape, as an unknown callee's. */
/* A node standing for a place in another file: what a fact needs to point there. */
static const gm_node *remote_node(engine *e, gm_loc loc, const char *name) {
  gm_node *n = gm_arena_alloc(e->tu->arena, sizeof *n);
  n->kind = GM_N_CALL;
  n->loc = loc;
  n->name = name;
  n->var = -1;
  return n;
}

/* A destructor's frees of this's members, from another file: a free row of the families this
 * file's table knows (a member whose families it knows none of is left out). */
static void import_member_frees(engine *e, const gm_call_summary *cs, summary *sum) {
  if (!cs->nmember_frees)
    return;
  const gm_table *table = e->imports->table;
  sum->member_frees = gm_arena_alloc(e->tu->arena, sizeof(member_free) * (size_t)cs->nmember_frees);
  for (int i = 0; i < cs->nmember_frees; i++) {
    const gm_member_free_summary *in = &cs->member_frees[i];
    member_free f = {0};
    f.member = in->member;
    f.free_row.name = cs->name;
    f.free_row.kind = GM_FN_FREE;
    f.free_row.ptr_arg = GM_ARG_NONE;
    for (int k = 0; k < in->nfrees && f.free_row.nfrees < GM_MAX_FREES; k++) {
      const gm_family *fam = gm_table_family(table, in->frees[k]);
      if (fam)
        f.free_row.frees[f.free_row.nfrees++] = fam;
    }
    f.via = in->via;
    f.inner = in->at.line ? remote_node(e, in->at, in->via) : NULL;
    if (f.member && f.free_row.nfrees)
      sum->member_frees[sum->nmember_frees++] = f;
  }
}

static summary *import_summary(engine *e, const gm_call_summary *cs) {
  const gm_table *table = e->imports->table;
  gm_func *fn = gm_arena_alloc(e->tu->arena, sizeof *fn);
  fn->name = cs->name;
  fn->usr = cs->usr;
  fn->nparams = cs->nparams;
  summary *sum = gm_arena_alloc(e->tu->arena, sizeof *sum);
  sum->fn = fn;
  sum->known = 1;
  sum->noreturn = cs->noreturn;
  sum->returns_fresh = cs->returns_fresh ? gm_table_family(table, cs->returns_fresh) : NULL;
  sum->nparams = cs->nparams;
  sum->params = gm_arena_alloc(e->tu->arena, sizeof(param_summary) * (size_t)(cs->nparams + 1));
  for (int i = 0; i < cs->nparams; i++) {
    const gm_param_summary *in = &cs->params[i];
    param_summary *p = &sum->params[i];
    switch (in->effect) {
    case GM_PARAM_BORROWS:
      p->effect = P_NONE;
      break;
    case GM_PARAM_FREES:
    case GM_PARAM_FREES_DEREF:
      p->effect = in->effect == GM_PARAM_FREES ? P_FREES : P_FREES_DEREF;
      p->free_row.name = cs->name;
      p->free_row.kind = GM_FN_FREE;
      p->free_row.ptr_arg = i;
      for (int k = 0; k < in->nfrees && p->free_row.nfrees < GM_MAX_FREES; k++) {
        const gm_family *fam = gm_table_family(table, in->frees[k]);
        if (fam)
          p->free_row.frees[p->free_row.nfrees++] = fam;
      }
      p->via = in->via;
      p->nulls = in->nulls;
      if (!p->free_row.nfrees)
        p->effect = P_ESCAPES;
      break;
    case GM_PARAM_OUT_ALLOC:
      p->family = in->family ? gm_table_family(table, in->family) : NULL;
      p->effect = p->family ? P_OUT_ALLOC : P_ESCAPES;
      break;
    default:
      p->effect = P_ESCAPES;
    }
    p->prefetches = in->prefetches;
    if (in->host_touch)
      p->host_touch = remote_node(e, (gm_loc){0}, cs->name);
    if (in->launch.line) {
      p->launch = remote_node(e, in->launch, in->kernel_name);
      p->kernel_usr = in->kernel_usr;
      p->kernel_name = in->kernel_name;
      p->kernel_param = in->kernel_param;
      if (in->dense.line) {
        p->remote_access = remote_node(e, in->dense, in->dense_where);
        p->remote_where = in->dense_where;
      }
    }
  }
  import_member_frees(e, cs, sum);
  sum->nmembers = 0;
  sum->members = gm_arena_alloc(e->tu->arena, sizeof(member_effect) * (size_t)(cs->nmembers + 1));
  for (int k = 0; k < cs->nmembers; k++) {
    const gm_member_effect *in = &cs->members[k];
    const gm_family *fam = in->fills && in->family ? gm_table_family(table, in->family) : NULL;
    if (in->fills && !fam && !in->clobbers)
      continue; /* a family this file's table does not know: nothing to follow */
    sum->members[sum->nmembers++] = (member_effect){
        in->root, in->member, (unsigned char)in->clobbers, (unsigned char)(in->fills && fam),
        fam,      NULL};
  }
  return sum;
}

/* The slot of `usr` in imported_by_usr: where its entry is, or the free slot to put it in. */
static size_t imported_slot(const engine *e, const char *usr, uint64_t h) {
  size_t k = (size_t)h & e->imported_mask;
  for (; e->imported_by_usr[k] >= 0; k = (k + 1) & e->imported_mask) {
    const struct imported_summary *in = &e->imported.items[e->imported_by_usr[k]];
    if (in->usr_hash == h && strcmp(in->usr, usr) == 0)
      break;
  }
  return k;
}

/* Doubles the index once it is half full, so a probe stays short. */
static void grow_imported_index(engine *e) {
  size_t size = e->imported_by_usr ? (e->imported_mask + 1) * 2 : 64;
  free(e->imported_by_usr);
  e->imported_by_usr = gm_xmalloc(sizeof(int) * size);
  e->imported_mask = size - 1;
  for (size_t k = 0; k < size; k++)
    e->imported_by_usr[k] = -1;
  for (size_t i = 0; i < e->imported.len; i++) {
    const struct imported_summary *in = &e->imported.items[i];
    e->imported_by_usr[imported_slot(e, in->usr, in->usr_hash)] = (int)i;
  }
}

summary *flow_summary_for(engine *e, const char *usr) {
  if (!usr)
    return NULL;
  int i = flow_function_of(e, usr);
  if (i >= 0)
    return e->summaries[i].known ? &e->summaries[i] : NULL;
  if (!e->imports)
    return NULL;
  if (!e->imported_by_usr || (e->imported.len + 1) * 2 > e->imported_mask + 1)
    grow_imported_index(e);
  uint64_t h = gm_hash64(usr, strlen(usr), 0);
  size_t k = imported_slot(e, usr, h);
  if (e->imported_by_usr[k] >= 0)
    return e->imported.items[e->imported_by_usr[k]].sum;
  const gm_call_summary *cs = e->imports->find(e->imports->arg, usr);
  summary *sum = cs ? import_summary(e, cs) : NULL;
  e->imported_by_usr[k] = (int)e->imported.len;
  GM_PUSH(e->imported, ((struct imported_summary){usr, h, sum}));
  return sum;
}

int flow_overloads_borrow(engine *e, const gm_node *call, int arg) {
  for (int k = 0; k < call->noverloads; k++) {
    const summary *sum = flow_summary_for(e, call->overloads[k]);
    if (!sum || arg >= sum->nparams || sum->params[arg].effect != P_NONE)
      return 0;
  }
  return 1;
}

void flow_export_summaries(engine *e, gm_call_summary **out, int *n) {
  gm_arena *a = e->tu->arena;
  gm_call_summary *all = gm_arena_alloc(a, sizeof *all * (size_t)(e->nsummaries + 1));
  int count = 0;
  for (int i = 0; i < e->nsummaries; i++) {
    const summary *sum = &e->summaries[i];
    if (!sum->known || !sum->fn->usr || sum->fn->is_kernel || sum->fn->is_device)
      continue; /* a header's reached functions too: the program reads its helpers' (unit.h) */
    gm_call_summary *cs = &all[count++];
    cs->usr = sum->fn->usr;
    cs->name = sum->fn->name;
    cs->noreturn = sum->noreturn;
    cs->returns_fresh = sum->returns_fresh ? sum->returns_fresh->name : NULL;
    cs->nparams = sum->nparams;
    cs->nmember_frees = sum->nmember_frees;
    cs->member_frees =
        gm_arena_alloc(a, sizeof(gm_member_free_summary) * (size_t)(sum->nmember_frees + 1));
    for (int k = 0; k < sum->nmember_frees; k++) {
      const member_free *f = &sum->member_frees[k];
      gm_member_free_summary *q = &cs->member_frees[k];
      q->member = f->member;
      q->via = f->via;
      for (int r = 0; r < f->free_row.nfrees && r < GM_SUMMARY_MAX_FREES; r++)
        q->frees[q->nfrees++] = f->free_row.frees[r]->name;
      q->at = f->inner ? f->inner->loc : (gm_loc){0};
    }
    cs->params = gm_arena_alloc(a, sizeof(gm_param_summary) * (size_t)(sum->nparams + 1));
    for (int k = 0; k < sum->nparams; k++) {
      const param_summary *p = &sum->params[k];
      gm_param_summary *q = &cs->params[k];
      switch (p->effect) {
      case P_NONE:
        q->effect = GM_PARAM_BORROWS;
        break;
      case P_FREES:
      case P_FREES_DEREF:
        q->effect = p->effect == P_FREES ? GM_PARAM_FREES : GM_PARAM_FREES_DEREF;
        for (int f = 0; f < p->free_row.nfrees && f < GM_SUMMARY_MAX_FREES; f++)
          q->frees[q->nfrees++] = p->free_row.frees[f]->name;
        q->via = p->via;
        q->nulls = p->nulls;
        break;
      case P_OUT_ALLOC:
        q->effect = GM_PARAM_OUT_ALLOC;
        q->family = p->family ? p->family->name : NULL;
        break;
      default:
        q->effect = GM_PARAM_ESCAPES;
      }
      for (int v = 0; v < sum->fn->nvars; v++)
        if (sum->fn->vars[v].param_index == k)
          q->reads_only = sum->fn->vars[v].reads_only;
      /* managed memory: the kernel's dense access is judged here, where the kernel is */
      q->prefetches = p->prefetches;
      q->host_touch = p->host_touch != NULL;
      if (p->launch) {
        q->launch = p->launch->loc;
        q->kernel_usr = p->kernel_usr;
        q->kernel_name = p->kernel_name;
        q->kernel_param = p->kernel_param;
        const gm_func *kernel = gm_find_kernel(e->tu, p->kernel_usr, p->kernel_name), *where;
        const gm_node *access =
            kernel ? gm_kernel_dense_access(e->tu, kernel, p->kernel_param, &where) : NULL;
        if (access) {
          q->dense = access->loc;
          q->dense_where = where->name;
        } else if (p->remote_access) { /* this helper passes it on to another file's */
          q->dense = p->remote_access->loc;
          q->dense_where = p->remote_where;
        }
      }
    }
    cs->nmembers = sum->nmembers;
    cs->members = gm_arena_alloc(a, sizeof(gm_member_effect) * (size_t)(sum->nmembers + 1));
    for (int k = 0; k < sum->nmembers; k++) {
      const member_effect *m = &sum->members[k];
      cs->members[k] = (gm_member_effect){m->root, m->member, m->clobbers, m->fills,
                                          m->family ? m->family->name : NULL};
    }
  }
  *out = all;
  *n = count;
}

/* Whether object `ref`, handed out through slot `out`, is also stored where the caller does not
 * own it: a global, a member reached from a parameter or `this` (a list the helper links it
 * into), or a table element. Then the caller gets a view of it, not ownership. */
static int published(engine *e, const state *s, int out, int ref) {
  if (s->objs[ref].stored_away)
    return 1;
  for (int slot = 0; slot < s->nslots; slot++) {
    val v = s->slots[slot];
    if (slot == out || v.kind != V_OBJ || v.ref != ref)
      continue;
    if (slot < e->fn->nvars) {
      if (e->fn->vars[slot].kind == GM_VAR_GLOBAL)
        return 1;
      continue;
    }
    const char *t = e->paths.items[slot - e->fn->nvars];
    while (*t == '*')
      t++;
    int var;
    if (strncmp(t, "this", 4) == 0)
      return 1;
    if (sscanf(t, "v%d", &var) == 1 && var >= 0 && var < e->fn->nvars &&
        e->fn->vars[var].kind != GM_VAR_LOCAL && strchr(t, '.'))
      return 1;
  }
  return 0;
}

/* 1 + the parameter an exit returns unchanged: its pointer (or one inside its block), or a
 * parameter no statement assigns, returned by name (`return status;`); 0 for anything else. */
static int returned_param(const engine *e, const state *s, val ret) {
  if (ret.kind == V_OBJ && ret.ref < s->nobjs) {
    const obj *o = &s->objs[ret.ref];
    return !o->site && o->param >= 0 && o->deref_param < 0 ? o->param + 1 : 0;
  }
  const gm_node *r = e->returning ? gm_strip(e->returning) : NULL;
  if (!r || r->kind != GM_N_VAR || r->var < 0 || r->var >= e->fn->nvars)
    return 0;
  const gm_var *v = &e->fn->vars[r->var];
  return v->param_index >= 0 && !e->assigned[r->var] && !e->addr_taken[r->var] ? v->param_index + 1
                                                                               : 0;
}

void flow_observe_exit(engine *e, state *s, val ret) {
  summary_obs *ob = &e->obs;
  ob->exits++;
  int rp = returned_param(e, s, ret);
  if (rp && (!ob->ret_param || ob->ret_param == rp)) {
    ob->ret_param = rp;
    ob->ret_param_offset |= ret.kind == V_OBJ && ret.offset;
  } else {
    ob->ret_param_other++;
  }
  flow_observe_destructor_exit(e, s);
  if (ret.kind == V_OBJ && s->objs[ret.ref].site && !s->objs[ret.ref].escaped &&
      s->objs[ret.ref].state == OBJ_LIVE && !ret.offset) {
    const gm_family *fam = s->objs[ret.ref].family;
    if (ob->ret_family && ob->ret_family != fam)
      ob->ret_other++;
    ob->ret_family = fam;
    ob->ret_inner = s->objs[ret.ref].inner_site;
    ob->ret_fresh++;
  } else if (ret.kind != V_NULL) {
    ob->ret_other++;
  }
  flow_observe_member_exit(e, s);
  int np = e->fn->nparams;
  for (int i = 0; i < s->nobjs; i++) {
    obj *o = &s->objs[i];
    if (o->deref_param >= 0 && o->deref_param < np && o->state == OBJ_FREED && o->freed_by) {
      ob->deref_freed[o->deref_param]++;
      ob->free_rows[o->deref_param] = o->freed_by;
      ob->free_via[o->deref_param] = o->freed_via;
      ob->free_inner[o->deref_param] = o->freed_inner;
    } else if (o->deref_param >= 0 && o->deref_param < np && o->state == OBJ_FAILED) {
      ob->deref_freed[o->deref_param]++; /* `if (*pp) cudaFree(*pp)`: null, nothing to free */
    }
    if (o->param < 0 || o->param >= np)
      continue;
    if (o->state == OBJ_FREED && o->freed_by) {
      ob->freed[o->param]++;
      ob->free_rows[o->param] = o->freed_by;
      ob->free_via[o->param] = o->freed_via;
      ob->free_inner[o->param] = o->freed_inner;
    } else if (o->state == OBJ_FAILED) {
      ob->freed[o->param]++; /* `if (p) cudaFree(p)`: null, nothing to free */
    }
    /* stored only into a member of an object from outside and freed through it there: the
     * caller's pointer is freed all the same (`h->p = q; cudaFree(h->p);`) */
    if (o->escaped && !(o->member_only && o->state == OBJ_FREED))
      ob->escaped[o->param]++;
    if (o->prefetched)
      ob->prefetched[o->param]++;
  }
  for (int slot = 0; slot < s->nslots; slot++) {
    int p = flow_slot_out_param(e, slot);
    if (p < 0 || p >= np)
      continue;
    val v = s->slots[slot];
    if (v.kind == V_NULL || (v.kind == V_OBJ && s->objs[v.ref].state == OBJ_FAILED))
      ob->deref_nulled[p]++; /* `*pp = NULL`, `ptr = NULL` through a reference, or null already */
    if (v.kind == V_OBJ && !s->objs[v.ref].site && s->objs[v.ref].state == OBJ_LIVE &&
        !s->objs[v.ref].nonnull && (s->objs[v.ref].deref_param == p || s->objs[v.ref].param == p))
      continue; /* what the caller passed in, untouched: an early return that writes nothing */
    if (v.kind == V_OBJ && s->objs[v.ref].site && s->objs[v.ref].state != OBJ_FREED &&
        !published(e, s, slot, v.ref)) {
      ob->out_fresh[p]++;
      ob->out_family[p] = s->objs[v.ref].family;
      ob->out_inner[p] = s->objs[v.ref].inner_site;
    } else if (v.kind != V_UNKNOWN && v.kind != V_NULL) {
      ob->out_other[p]++;
    }
  }
}

int flow_summarise(engine *e, summary *sum) {
  const gm_func *fn = sum->fn;
  int np = fn->nparams;
  summary_obs *ob = &e->obs;
  memset(ob, 0, sizeof *ob);
  ob->freed = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->escaped = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->out_fresh = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->out_other = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->deref_freed = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->deref_nulled = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->free_rows = gm_xcalloc((size_t)np + 1, sizeof(gm_fn *));
  ob->free_via = gm_xcalloc((size_t)np + 1, sizeof(char *));
  ob->free_inner = gm_xcalloc((size_t)np + 1, sizeof(gm_node *));
  ob->out_inner = gm_xcalloc((size_t)np + 1, sizeof(gm_node *));
  ob->out_family = gm_xcalloc((size_t)np + 1, sizeof(gm_family *));
  ob->prefetched = gm_xcalloc((size_t)np + 1, sizeof(int));
  ob->launch = gm_xcalloc((size_t)np + 1, sizeof(gm_node *));
  ob->host_touch = gm_xcalloc((size_t)np + 1, sizeof(gm_node *));
  ob->kernel_usr = gm_xcalloc((size_t)np + 1, sizeof(char *));
  ob->kernel_name = gm_xcalloc((size_t)np + 1, sizeof(char *));
  ob->kernel_param = gm_xcalloc((size_t)np + 1, sizeof(int));
  e->summary_mode = 1;
  flow_run_function(e, fn);
  e->summary_mode = 0;

  summary next = *sum;
  next.known = 1;
  /* every path ended at a recursive call still pending: nothing is known yet */
  next.pending = sum->pending && ob->exits == 0 && ob->pending_cuts && !e->truncated;
  next.noreturn = ob->exits == 0 && !e->truncated && !next.pending;
  next.returns_fresh = ob->ret_fresh && !ob->ret_other ? ob->ret_family : NULL;
  next.returns_site = next.returns_fresh ? ob->ret_inner : NULL;
  next.returns_arg =
      ob->exits && !ob->ret_param_other && !next.returns_fresh && !e->truncated ? ob->ret_param : 0;
  next.returns_arg_offset = next.returns_arg && ob->ret_param_offset;
  param_summary *ps = gm_arena_alloc(e->tu->arena, sizeof(param_summary) * (size_t)(np + 1));
  for (int i = 0; i < np; i++) {
    int frees = ob->exits && ob->freed[i] == ob->exits && ob->free_rows[i] && !ob->escaped[i];
    /* `destroy(T **pp) { cudaFree(*pp); *pp = NULL; }`: a free through the pointer */
    int frees_deref = !frees && ob->exits && ob->deref_freed[i] == ob->exits && ob->free_rows[i] &&
                      !ob->out_fresh[i] && !ob->escaped[i];
    if (frees || frees_deref) {
      ps[i].effect = frees ? P_FREES : P_FREES_DEREF;
      gm_fn row = *ob->free_rows[i];
      row.name = fn->name;
      ps[i].free_row = row;
      ps[i].via = ob->free_via[i];
      ps[i].inner = ob->free_inner[i];
      /* `T *&p` or `*pp` set to null after the free on every path */
      ps[i].nulls = ob->deref_nulled[i] == ob->exits;
    } else if (ob->out_fresh[i] && !ob->out_other[i]) {
      ps[i].effect = P_OUT_ALLOC;
      ps[i].family = ob->out_family[i];
      ps[i].inner = ob->out_inner[i];
    } else if ((ob->freed[i] && ob->free_rows[i]) || ob->escaped[i] || e->truncated) {
      /* (freed[] also counts paths that found it null, where a borrower has nothing to do) */
      ps[i].effect = P_ESCAPES;
    } else {
      ps[i].effect = P_NONE;
    }
  }
  for (int i = 0; i < np; i++) {
    ps[i].prefetches = ob->exits && ob->prefetched[i] == ob->exits;
    ps[i].launch = ob->launch[i];
    ps[i].host_touch = ob->host_touch[i];
    ps[i].kernel_usr = ob->kernel_usr[i];
    ps[i].kernel_name = ob->kernel_name[i];
    ps[i].kernel_param = ob->kernel_param[i];
  }
  next.params = ps;
  next.nparams = np;
  flow_summarise_member_frees(e, &next);
  int changed = !sum->known || next.pending != sum->pending || next.noreturn != sum->noreturn ||
                next.returns_fresh != sum->returns_fresh || next.returns_arg != sum->returns_arg ||
                next.nmember_frees != sum->nmember_frees;
  for (int i = 0; i < np && !changed; i++)
    changed = sum->params[i].effect != ps[i].effect ||
              sum->params[i].prefetches != ps[i].prefetches ||
              sum->params[i].launch != ps[i].launch;
  changed |= flow_member_effects_finish(e, sum, &next);
  *sum = next;
  free(ob->freed);
  free(ob->escaped);
  free(ob->out_fresh);
  free(ob->out_other);
  free(ob->deref_freed);
  free(ob->deref_nulled);
  free(ob->free_rows);
  free(ob->free_via);
  free(ob->free_inner);
  free(ob->out_inner);
  free(ob->out_family);
  free(ob->prefetched);
  free(ob->launch);
  free(ob->host_touch);
  free(ob->kernel_usr);
  free(ob->kernel_name);
  free(ob->kernel_param);
  memset(ob, 0, sizeof *ob);
  return changed;
}
