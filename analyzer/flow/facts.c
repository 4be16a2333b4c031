/* The memory facts the flow engine records on a path: leaks at exits, frees judged (wrong
 * family, interior pointer, double free), and managed memory launched, touched by the host or
 * prefetched; while a helper is summarised, what it does with its parameters instead. */
#include "flow/engine.h"

#include <stdlib.h>
#include <string.h>

/* A fact about an object: its allocation site, family and owner, and where it happened. */
static gm_fact fact_about(enum gm_fact_kind kind, const state *s, const obj *o, const gm_node *at) {
  gm_fact f = {0};
  f.latent = flow_state_latent(s);
  f.kind = kind;
  f.alloc = o->site;
  f.family = o->family;
  f.var = o->owner;
  f.at = at;
  return f;
}

/* The same node, or one written at the same place (a macro that names its argument twice). */
static int same_place(const gm_node *a, const gm_node *b) {
  if (a == b)
    return 1;
  return a && b && a->loc.file && b->loc.file && a->loc.line == b->loc.line &&
         a->loc.col == b->loc.col && strcmp(a->loc.file, b->loc.file) == 0;
}

static void add_fact(engine *e, gm_fact f) {
  if (e->summary_mode)
    return;
  /* several paths reach the same wrong free: one finding */
  for (size_t i = 0; i < e->facts.len; i++)
    if (e->facts.items[i].kind == f.kind && same_place(e->facts.items[i].at, f.at) &&
        e->facts.items[i].alloc == f.alloc && e->facts.items[i].prefetched == f.prefetched &&
        e->facts.items[i].freed_address == f.freed_address) {
      e->facts.items[i].latent &= f.latent; /* a manifest path makes it manifest */
      return;
    }
  GM_PUSH(e->facts, f);
}

/* The slot of the leak index where site is or goes: open addressing on the node's address, so
 * that an exit where thousands of objects leak finds each site's fact in one step. */
static size_t leak_slot(const struct leak_index *r, const gm_node *site) {
  uintptr_t a = (uintptr_t)site;
  size_t k = (size_t)gm_hash64(&a, sizeof a, 0) & (r->cap - 1);
  while (r->sites[k] && r->sites[k] != site)
    k = (k + 1) & (r->cap - 1);
  return k;
}

static void leak_index_add(struct leak_index *r, const gm_node *site, size_t fact) {
  if (2 * (r->len + 1) > r->cap) {
    struct leak_index old = *r;
    r->cap = old.cap ? old.cap * 2 : 64;
    r->sites = gm_xcalloc(r->cap, sizeof *r->sites);
    r->facts = gm_xmalloc(r->cap * sizeof *r->facts);
    for (size_t i = 0; i < old.cap; i++)
      if (old.sites[i]) {
        size_t k = leak_slot(r, old.sites[i]);
        r->sites[k] = old.sites[i];
        r->facts[k] = old.facts[i];
      }
    free(old.sites);
    free(old.facts);
  }
  size_t k = leak_slot(r, site);
  r->sites[k] = site;
  r->facts[k] = fact;
  r->len++;
}

void flow_leak_index_clear(engine *e, int release) {
  struct leak_index *r = &e->reported;
  if (release) {
    free(r->sites);
    free(r->facts);
    *r = (struct leak_index){0};
  } else if (r->len) {
    memset(r->sites, 0, r->cap * sizeof *r->sites);
    r->len = 0;
  }
}

/* Whether fn is the program's main: returning from it ends the process. A method or a namespace's
 * function of that name is not (its USR names its scope), nor a lambda inside main. */
int flow_is_program_main(const gm_func *fn) {
  const char *u = fn->usr;
  return fn->name && strcmp(fn->name, "main") == 0 && u && strncmp(u, "c:@F@main", 9) == 0 &&
         (u[9] == '\0' || u[9] == '#');
}

/* Which of a site's leaks is kept (one finding per site), lowest first: a manifest leak before a
 * latent one, one while the program runs (GM001's) before one where it ends (GM005's), the normal
 * path's before an error path's. */
static int leak_rank(const gm_fact *f) {
  return f->latent << 2 | f->ends_process << 1 | (f->error_path != 0);
}

void flow_report_leak(engine *e, state *s, int id, const gm_node *at, enum gm_exit_kind how) {
  obj *o = &s->objs[id];
  o->escaped = 1; /* reported once; it no longer matters on this path */
  if (!o->site || e->summary_mode)
    return;
  gm_fact f = fact_about(GM_FACT_LEAK, s, o, at);
  f.exit = how;
  f.ends_process = how == GM_EXIT_PROCESS ||
                   ((how == GM_EXIT_RETURN || how == GM_EXIT_END) && flow_is_program_main(e->fn));
  f.error_path = s->error_path;
  if ((how == GM_EXIT_REDECLARE || how == GM_EXIT_OVERWRITE) && s->skipped_by)
    f.skipped_by = s->skipped_by;
  size_t k = e->reported.cap ? leak_slot(&e->reported, o->site) : 0;
  if (e->reported.cap && e->reported.sites[k]) {
    gm_fact *old = &e->facts.items[e->reported.facts[k]];
    if (leak_rank(&f) < leak_rank(old))
      *old = f;
    return;
  }
  add_fact(e, f);
  leak_index_add(&e->reported, o->site, e->facts.len - 1);
}

/* What storage a value no allocator made is, for messages; NULL when it may be allocated. */
static const char *unallocated_storage(const engine *e, val v) {
  if (v.kind == V_STATIC && v.ref < 0)
    return "a string literal";
  if ((v.kind != V_STATIC && v.kind != V_ADDR) || v.ref >= e->fn->nvars)
    return NULL; /* &p->field: a member of memory that may be allocated */
  const gm_var *var = &e->fn->vars[v.ref];
  if (var->kind == GM_VAR_REF)
    return NULL; /* &r is the address of what r refers to */
  static const char *const arrays[] = {"a local array", "a static array", "a __device__ array",
                                       "a __constant__ array", "a __shared__ array"};
  static const char *const objects[] = {"a local variable", "a static variable",
                                        "a __device__ variable", "a __constant__ variable",
                                        "a __shared__ variable"};
  int i = var->space != GM_SPACE_HOST ? 1 + (int)var->space : var->kind == GM_VAR_GLOBAL ? 1 : 0;
  if (var->kind == GM_VAR_PARAM)
    return "a parameter";
  return v.kind == V_STATIC ? arrays[i] : objects[i];
}

/* A free of storage no allocator made: the call fails (cudaFree) or corrupts the heap (free). */
static void free_unallocated(engine *e, const state *s, const gm_node *call, val v,
                             const gm_fn *row, const char *via) {
  const char *storage = unallocated_storage(e, v);
  if (!storage)
    return;
  gm_fact f = {0};
  f.kind = GM_FACT_FREE_UNALLOCATED;
  f.at = call;
  f.free_name = row->name;
  f.free_families = row->frees;
  f.nfree_families = row->nfrees;
  f.via = via;
  f.storage = storage;
  f.var = v.ref >= 0 ? e->fn->vars[v.ref].name : NULL;
  for (int i = 0; i < call->nkids && !f.through; i++) {
    const gm_node *arg = gm_arg(call, i);
    val held = arg && arg->kind == GM_N_VAR ? slot_get(s, arg->var) : (val){0};
    if (arg && arg->kind == GM_N_VAR && arg->var != v.ref && held.kind == v.kind &&
        held.ref == v.ref)
      f.through = arg->name; /* `float *p = buf; cudaFree(p);` */
  }
  f.freed_address = v.kind != V_ADDR ? 0 : e->fn->vars[v.ref].is_pointer ? 2 : 1;
  add_fact(e, f);
}

/* The call that gave the block the address a table free releases it through (`cudaFree(d)` of
 * cudaHostGetDevicePointer's `d`); NULL when it frees it through another name. */
static const gm_node *freed_through_alias(engine *e, const obj *o, const gm_node *call,
                                          const gm_fn *row) {
  if (!o->alias_call || o->alias_slot < 0 || call->fn != row)
    return NULL; /* a helper's free names no argument of this call */
  int owning;
  int slot = flow_lvalue_slot(e, gm_arg(call, row->ptr_arg), &owning);
  return slot == o->alias_slot ? o->alias_call : NULL;
}

void flow_do_free(engine *e, state *s, const gm_node *call, val v, const gm_fn *row,
                  const char *via, const gm_node *inner) {
  if (v.kind == V_STATIC || v.kind == V_ADDR)
    free_unallocated(e, s, call, v, row, via);
  if (v.kind == V_UNKNOWN) {
    gm_fact f = {0};
    f.latent = s->latent;
    f.kind = GM_FACT_FREED_BLOCK;
    f.at = call;
    add_fact(e, f); /* a block from outside: its family is not known here */
  }
  if (v.kind != V_OBJ)
    return; /* null, unknown or not a pointer we know: nothing to judge */
  obj *o = &s->objs[v.ref];
  if (o->state == OBJ_FAILED)
    return;
  gm_fact got = fact_about(GM_FACT_FREED_BLOCK, s, o, call);
  if (!o->site || !o->family)
    got.alloc = NULL, got.family = NULL; /* what a member or parameter held on entry */
  add_fact(e, got);
  if (o->state == OBJ_FREED) {
    if (o->param < 0 || !e->summary_mode) {
      gm_fact f = fact_about(GM_FACT_DOUBLE_FREE, s, o, call);
      f.first_free = o->freed_at;
      f.inner_free = o->freed_inner;
      f.first_free_name = o->freed_by ? o->freed_by->name : NULL;
      f.free_name = row->name;
      f.via = via;
      f.alias_call = freed_through_alias(e, o, call, row);
      add_fact(e, f);
    }
    return;
  }
  if (v.offset) {
    gm_fact f = fact_about(GM_FACT_OFFSET_FREE, s, o, call);
    f.free_name = row->name;
    f.via = via;
    if (o->site)
      add_fact(e, f);
  } else if (o->family && !gm_fn_frees_family(row, o->family)) {
    gm_fact f = fact_about(GM_FACT_MISMATCH, s, o, call);
    f.free_name = row->name;
    f.free_families = row->frees;
    f.nfree_families = row->nfrees;
    f.via = via;
    f.inner_alloc = o->inner_site;
    f.inner_free = inner ? inner : call;
    f.alias_call = freed_through_alias(e, o, call, row);
    add_fact(e, f);
  }
  o->state = OBJ_FREED;
  o->freed_at = call;
  o->freed_inner = inner ? inner : call;
  o->freed_by = row;
  o->freed_via = via ? via : row->name;
}

static int is_managed(const state *s, val v) {
  return v.kind == V_OBJ && s->objs[v.ref].family && s->objs[v.ref].family->managed;
}

/* Only managed memory's touches are kept: other objects' would split states for nothing. */
void flow_touch_on_host(state *s, int ref) {
  if (is_managed(s, (val){.kind = V_OBJ, .ref = ref}))
    s->objs[ref].touch = TOUCH_HOST;
}

/* A write the device makes (cudaMemset, a copy from device memory): a fresh allocation's pages
 * are created on the device. Memory the host touched first keeps that mark: its pages were
 * placed on the host and move on demand. */
void flow_note_device_write(state *s, val v) {
  if (is_managed(s, v) && s->objs[v.ref].touch == TOUCH_NONE)
    s->objs[v.ref].touch = TOUCH_DEVICE;
}

/* Host code touching memory: GM031's evidence. Kernels and device functions do not count. */
void flow_note_host_touch(engine *e, state *s, val v, const gm_node *at) {
  if (v.kind != V_OBJ || e->fn->is_kernel || e->fn->is_device)
    return;
  flow_touch_on_host(s, v.ref);
  const obj *o = &s->objs[v.ref];
  if (e->summary_mode && o->param >= 0 && o->param < e->fn->nparams && e->obs.host_touch)
    e->obs.host_touch[o->param] = at; /* a helper that touches its parameter on the host */
  if (!is_managed(s, v) || !o->site)
    return;
  add_fact(e, fact_about(GM_FACT_MANAGED_HOST, s, o, at));
}

/* Memory handed to a kernel parameter: a managed allocation becomes a GM030/GM031 fact; a
 * parameter of the function being summarised records that the helper launches it. */
void flow_note_launch_arg(engine *e, state *s, val v, const gm_node *launch, const char *usr,
                          const char *kname, int param, const gm_node *via) {
  if (v.kind != V_OBJ)
    return;
  obj *o = &s->objs[v.ref];
  if (e->summary_mode && o->param >= 0 && !o->prefetched && o->param < e->fn->nparams &&
      e->obs.launch) {
    e->obs.launch[o->param] = launch;
    e->obs.kernel_usr[o->param] = usr;
    e->obs.kernel_name[o->param] = kname;
    e->obs.kernel_param[o->param] = param;
  }
  if (!is_managed(s, v) || !o->site)
    return;
  gm_fact f = fact_about(GM_FACT_MANAGED_LAUNCH, s, o, launch);
  /* memory the host never touched has nothing to migrate: this launch creates its pages on the
   * device, or an earlier device write did */
  f.prefetched = o->prefetched || o->touch != TOUCH_HOST;
  o->touch = o->touch == TOUCH_HOST ? TOUCH_HOST : TOUCH_DEVICE;
  f.kernel_usr = usr;
  f.kernel_name = kname;
  f.kernel_param = param;
  f.via_call = via;
  if (e->launching) {
    f.remote_access = e->launching->remote_access;
    f.remote_where = e->launching->remote_where;
  }
  add_fact(e, f);
}

void flow_note_prefetch(engine *e, state *s, val v, const gm_node *at) {
  if (v.kind != V_OBJ)
    return;
  obj *o = &s->objs[v.ref];
  o->prefetched = 1;
  if (!is_managed(s, v) || !o->site)
    return;
  add_fact(e, fact_about(GM_FACT_MANAGED_PREFETCH, s, o, at));
}

/* cudaLaunchKernel(kernel, grid, block, args, ...): args names an array initialised with the
 * addresses of the kernel's arguments. */
void flow_launch_through_api(engine *e, state *s, const gm_node *n) {
  const gm_node *kernel = gm_arg(n, 0);
  const gm_node *args = gm_arg(n, 3);
  if (!kernel || !args || args->kind != GM_N_VAR || !e->array_init || !e->array_init[args->var])
    return;
  const gm_node *list = e->array_init[args->var];
  for (int i = 0; i < list->nkids; i++) {
    const gm_node *el = list->kids[i];
    if (el && el->kind == GM_N_ADDR && gm_kid(el, 0) && el->kids[0]->kind == GM_N_VAR)
      flow_note_launch_arg(e, s, slot_get(s, el->kids[0]->var), n, kernel->callee_usr, kernel->name,
                           i, NULL);
  }
}

/* A lambda that launches a kernel with a captured variable: the launch is credited where the
 * lambda is made (it is usually called right there). */
struct lambda_launch_ctx {
  engine *e;
  state *s;
  const gm_func *lambda;
  const gm_node *made_at;
};

static void lambda_launch_visit(const gm_node *n, void *arg) {
  struct lambda_launch_ctx *c = arg;
  if (n->kind != GM_N_CALL || !n->is_launch)
    return;
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *a = n->kids[i];
    if (!a || a->kind != GM_N_VAR || c->lambda->vars[a->var].param_index >= 0)
      continue;
    /* a captured variable: find it among the enclosing function's variables by name */
    for (int v = 0; v < c->e->fn->nvars; v++)
      if (strcmp(c->e->fn->vars[v].name, c->lambda->vars[a->var].name) == 0) {
        flow_note_launch_arg(c->e, c->s, slot_get(c->s, v), n, n->callee_usr, n->name, i,
                             c->made_at);
        break;
      }
  }
}

void flow_note_lambda_launches(engine *e, state *s, const gm_node *lambda_node) {
  int i = lambda_node->callee_usr ? flow_function_of(e, lambda_node->callee_usr) : -1;
  if (i < 0)
    return;
  struct lambda_launch_ctx c = {e, s, e->summaries[i].fn, lambda_node};
  gm_walk(c.lambda->body, lambda_launch_visit, &c);
}

void flow_check_exit(engine *e, state *s, const gm_node *at, enum gm_exit_kind how) {
  flow_charge(e, s->nobjs);
  for (int i = 0; i < s->nobjs; i++) {
    obj *o = &s->objs[i];
    if (o->state == OBJ_LIVE && !o->escaped && o->site)
      flow_report_leak(e, s, i, at, how);
  }
}

gm_node_set gm_flow_own_block_frees(const gm_tu *tu, const gm_func_facts *facts, int nfacts) {
  GM_VEC(const gm_node *) all = {0};
  GM_VEC(const gm_node *) foreign = {0};
  for (int i = 0; i < nfacts; i++)
    for (int k = 0; k < facts[i].nfacts; k++) {
      const gm_fact *f = &facts[i].facts[k];
      if (f->kind == GM_FACT_FREED_BLOCK && f->alloc)
        GM_PUSH(all, f->at);
      else if (f->kind == GM_FACT_FREED_BLOCK)
        GM_PUSH(foreign, f->at);
    }
  if (foreign.len)
    qsort(foreign.items, foreign.len, sizeof *foreign.items, gm_node_ptr_cmp);
  gm_node_set out = {gm_arena_alloc(tu->arena, sizeof *out.items * (all.len + 1)), 0};
  for (size_t i = 0; i < all.len; i++)
    if (!foreign.len ||
        !bsearch(&all.items[i], foreign.items, foreign.len, sizeof *foreign.items, gm_node_ptr_cmp))
      out.items[out.len++] = all.items[i];
  if (out.len)
    qsort(out.items, out.len, sizeof *out.items, gm_node_ptr_cmp);
  GM_VEC_FREE(all);
  GM_VEC_FREE(foreign);
  return out;
}
