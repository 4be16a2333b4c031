/* Summaries of same-file functions: what each exit of a helper shows about its result and its
 * parameters, folded into per-parameter effects (P_FREES, P_FREES_DEREF, P_OUT_ALLOC,
 * P_ESCAPES) that a call to the helper applies. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

summary *summary_for(engine *e, const char *usr) {
  if (!usr)
    return NULL;
  uint64_t h = gm_hash64(usr, strlen(usr), 0);
  for (int i = 0; i < e->nsummaries; i++)
    if (e->summaries[i].usr_hash == h && strcmp(e->summaries[i].fn->usr, usr) == 0)
      return e->summaries[i].known ? &e->summaries[i] : NULL;
  return NULL;
}

void observe_exit(engine *e, state *s, val ret) {
  summary_obs *ob = &e->obs;
  ob->exits++;
  if (ret.kind == V_OBJ && s->objs[ret.ref].site && !s->objs[ret.ref].escaped &&
      s->objs[ret.ref].state == OBJ_LIVE && !ret.offset) {
    const gm_family *fam = s->objs[ret.ref].family;
    if (ob->ret_family && ob->ret_family != fam)
      ob->ret_other++;
    ob->ret_family = fam;
    ob->ret_fresh++;
  } else if (ret.kind != V_NULL) {
    ob->ret_other++;
  }
  int np = e->fn->nparams;
  for (int i = 0; i < s->nobjs; i++) {
    obj *o = &s->objs[i];
    if (o->deref_param >= 0 && o->deref_param < np && o->state == OBJ_FREED && o->freed_by) {
      ob->deref_freed[o->deref_param]++;
      ob->free_rows[o->deref_param] = o->freed_by;
      ob->free_via[o->deref_param] = o->freed_via;
    } else if (o->deref_param >= 0 && o->deref_param < np && o->state == OBJ_FAILED) {
      ob->deref_freed[o->deref_param]++; /* `if (*pp) cudaFree(*pp)`: null, nothing to free */
    }
    if (o->param < 0 || o->param >= np)
      continue;
    if (o->state == OBJ_FREED && o->freed_by) {
      ob->freed[o->param]++;
      ob->free_rows[o->param] = o->freed_by;
      ob->free_via[o->param] = o->freed_via;
    } else if (o->state == OBJ_FAILED) {
      ob->freed[o->param]++; /* `if (p) cudaFree(p)`: null, nothing to free */
    }
    if (o->escaped)
      ob->escaped[o->param]++;
    if (o->prefetched)
      ob->prefetched[o->param]++;
  }
  for (int slot = 0; slot < s->nslots; slot++) {
    int p = slot_out_param(e, slot);
    if (p < 0 || p >= np)
      continue;
    val v = s->slots[slot];
    if (v.kind == V_NULL || (v.kind == V_OBJ && s->objs[v.ref].state == OBJ_FAILED))
      ob->deref_nulled[p]++; /* `*pp = NULL`, `ptr = NULL` through a reference, or null already */
    if (v.kind == V_OBJ && !s->objs[v.ref].site && s->objs[v.ref].state == OBJ_LIVE &&
        !s->objs[v.ref].nonnull && (s->objs[v.ref].deref_param == p || s->objs[v.ref].param == p))
      continue; /* what the caller passed in, untouched: an early return that writes nothing */
    if (v.kind == V_OBJ && s->objs[v.ref].site && s->objs[v.ref].state != OBJ_FREED) {
      ob->out_fresh[p]++;
      ob->out_family[p] = s->objs[v.ref].family;
    } else if (v.kind != V_UNKNOWN && v.kind != V_NULL) {
      ob->out_other[p]++;
    }
  }
}

int summarise(engine *e, summary *sum) {
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
  next.noreturn = ob->exits == 0 && !e->truncated;
  next.returns_fresh = ob->ret_fresh && !ob->ret_other ? ob->ret_family : NULL;
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
      /* `T *&p` or `*pp` set to null after the free on every path */
      ps[i].nulls = ob->deref_nulled[i] == ob->exits;
    } else if (ob->out_fresh[i] && !ob->out_other[i]) {
      ps[i].effect = P_OUT_ALLOC;
      ps[i].family = ob->out_family[i];
    } else if (ob->freed[i] || ob->escaped[i] || e->truncated) {
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
  int changed =
      !sum->known || next.noreturn != sum->noreturn || next.returns_fresh != sum->returns_fresh;
  for (int i = 0; i < np && !changed; i++)
    changed = sum->params[i].effect != ps[i].effect ||
              sum->params[i].prefetches != ps[i].prefetches ||
              sum->params[i].launch != ps[i].launch;
  *sum = next;
  free(ob->freed);
  free(ob->escaped);
  free(ob->out_fresh);
  free(ob->out_other);
  free(ob->deref_freed);
  free(ob->deref_nulled);
  free(ob->free_rows);
  free(ob->free_via);
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
