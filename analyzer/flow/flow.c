#include "flow/flow.h"

#include <stdlib.h>
#include <string.h>

/* Caps measured on 339 real .cu files (BENCHMARKS.md "Real CUDA code"): 128 states and a
 * million steps cut 27 functions short where 48 and 200,000 cut 40; CPU on the 36 files that hit
 * the old caps rose from 23.9 s to 34.4 s, and the other files never reach them. */
enum { MAX_STATES = 128, LOOP_ROUNDS = 3, SUMMARY_ROUNDS = 3, STEP_BUDGET = 1000000 };

/* ---- abstract values and states ---- */

/* V_RESULT: the status of the call that allocated object `ref` (nonzero: it failed); V_OK: the
 * same from a helper returning bool (false: it failed); V_FREED: the status of the call that
 * freed it (a failed free leaves nothing to judge). */
enum val_kind { V_UNKNOWN, V_NULL, V_CONST, V_OBJ, V_RESULT, V_ADDR, V_FREED, V_OK };

typedef struct val {
  unsigned char kind;
  unsigned char offset; /* V_OBJ: points inside the object, not at its start */
  int ref;              /* V_OBJ/V_RESULT/V_FREED: object index; V_ADDR: slot */
} val;

enum obj_state { OBJ_LIVE, OBJ_FREED, OBJ_FAILED };

typedef struct obj {
  const gm_node *site;     /* allocation call; NULL for a parameter's pointee */
  const gm_family *family; /* NULL when unknown (parameters) */
  const char *owner;       /* first variable that held it */
  const gm_node *freed_at;
  const gm_fn *freed_by; /* for summaries: the free that released it */
  const char *freed_via;
  int param;       /* parameter index for parameter objects, else -1 */
  int deref_param; /* what parameter `T **pp` points at (*pp), else -1 */
  unsigned char state;
  unsigned char escaped;
  unsigned char from_return; /* allocated as a return value (null on failure) */
  unsigned char nonnull;     /* a null test on this path found it non-null */
  unsigned char prefetched;  /* managed memory placed by cudaMemPrefetchAsync/cudaMemAdvise */
} obj;

/* A branch decision: condition `key` came out `truth`. Equality facts also name the expression
 * (`base`) and the constant it was compared with, so `x == 1` excludes `x == 2`. */
typedef struct fact_rec {
  uint64_t key;
  uint64_t deps;
  uint64_t base;
  long long value;
  unsigned char truth;
  unsigned char is_eq;
} fact_rec;

typedef struct state {
  obj *objs;
  int nobjs, capobjs;
  val *slots;
  unsigned char *exposed; /* per slot: its address reached code we do not model */
  int nslots;
  fact_rec *facts;
  int nfacts, capfacts;
  int dead;
  int error_path;            /* took a branch that a failed call takes (error status, null) */
  const gm_node *skipped_by; /* the continue that ended this path's last iteration early */
} state;

typedef GM_VEC(state *) state_list;

typedef struct flow_out {
  state_list next, brk, cont;
} flow_out;

/* ---- summaries ---- */

enum param_effect { P_NONE, P_ESCAPES, P_FREES, P_OUT_ALLOC, P_FREES_DEREF };

typedef struct param_summary {
  enum param_effect effect;
  int prefetches;            /* prefetches or advises its parameter on every path */
  const gm_node *launch;     /* launches a kernel with it, unprefetched */
  const gm_node *host_touch; /* host code reads or writes through it */
  const char *kernel_usr, *kernel_name;
  int kernel_param;
  const gm_family *family; /* P_OUT_ALLOC */
  gm_fn free_row;          /* P_FREES, P_FREES_DEREF: acts as this free */
  const char *via;         /* P_FREES, P_FREES_DEREF: the inner free's name */
  int nulls; /* P_FREES_DEREF, P_FREES of a reference: leaves the pointer null on every path */
} param_summary;

typedef struct summary {
  const gm_func *fn;
  uint64_t usr_hash;
  int known;
  int noreturn;
  const gm_family *returns_fresh;
  int nparams;
  param_summary *params;
} summary;

/* Per-exit observations gathered while summarising a function. */
typedef struct summary_obs {
  int exits;
  int ret_fresh, ret_other;
  const gm_family *ret_family;
  int *freed, *escaped, *out_fresh, *out_other;
  int *deref_freed, *deref_nulled; /* `T **pp` parameters: *pp freed, *pp null at the exit */
  const gm_fn **free_rows;
  const char **free_via;
  const gm_family **out_family;
  int *prefetched;
  const gm_node **launch;
  const gm_node **host_touch;
  const char **kernel_usr, **kernel_name;
  int *kernel_param;
} summary_obs;

typedef GM_VEC(long long) value_vec;
typedef GM_VEC(uint64_t) key_vec;

/* The switch being followed: its entry states, and what its case labels may assume. */
struct switch_ctx {
  state_list *entries;
  int pure; /* the condition has no side effects: its value can be remembered */
  uint64_t base, deps;
  value_vec values; /* its cases' constants */
};

typedef struct engine {
  const gm_tu *tu;
  const gm_func *fn;
  summary *summaries;
  int nsummaries;
  int summary_mode;
  summary_obs obs;
  GM_VEC(char *) paths;      /* pseudo-variables: member and dereference paths */
  unsigned char *addr_taken; /* per var */
  GM_VEC(struct pending_goto {
    const char *label;
    state *st;
  })
  gotos;
  GM_VEC(struct switch_ctx *) switch_entries;
  GM_VEC(const gm_node *) reported; /* leak sites already reported */
  const gm_node **array_init;       /* per var: its initialiser list (cudaLaunchKernel args) */
  GM_VEC(gm_fact) facts;
  long steps;
  key_vec retested; /* sorted: conditions tested at two places or more */
  int truncated;
} engine;

static int retested(const engine *e, uint64_t key);

/* ---- state helpers ---- */

static int slot_is_memory(const engine *e, int slot) {
  if (slot >= e->fn->nvars)
    return 1; /* a member or pointee path */
  const gm_var *v = &e->fn->vars[slot];
  return v->kind == GM_VAR_GLOBAL || v->kind == GM_VAR_REF || e->addr_taken[slot];
}

static state *state_new(void) {
  return gm_xcalloc(1, sizeof(state));
}

static state *state_copy(const state *s) {
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
  c->dead = s->dead;
  c->error_path = s->error_path;
  c->skipped_by = s->skipped_by;
  return c;
}

static void state_swap(state *a, state *b) {
  state t = *a;
  *a = *b;
  *b = t;
}

static void state_free(state *s) {
  if (!s)
    return;
  free(s->objs);
  free(s->slots);
  free(s->exposed);
  free(s->facts);
  free(s);
}

static void list_free(state_list *l) {
  for (size_t i = 0; i < l->len; i++)
    state_free(l->items[i]);
  GM_VEC_FREE(*l);
}

static val slot_get(const state *s, int slot) {
  val v = {V_UNKNOWN, 0, 0};
  if (slot >= 0 && slot < s->nslots)
    return s->slots[slot];
  return v;
}

static void slot_set_raw(state *s, int slot, val v) {
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

static int obj_new(state *s, obj o) {
  if (s->nobjs == s->capobjs) {
    s->capobjs = s->capobjs ? s->capobjs * 2 : 8;
    s->objs = gm_xrealloc(s->objs, sizeof(obj) * (size_t)s->capobjs);
  }
  s->objs[s->nobjs] = o;
  return s->nobjs++;
}

static int obj_referenced(const state *s, int id, int except_slot) {
  for (int i = 0; i < s->nslots; i++)
    if (i != except_slot && (s->slots[i].kind == V_OBJ || s->slots[i].kind == V_RESULT) &&
        s->slots[i].ref == id && s->slots[i].kind == V_OBJ)
      return 1;
  return 0;
}

/* A branch fact's dependencies: one bit per local slot (modulo 62, conservatively), and
 * MEMORY_DEP for anything read through memory (members, pointees, globals, references), which
 * any store through a path or any call that may write memory invalidates. */
#define MEMORY_DEP (1ULL << 62)
#define GLOBAL_DEP (1ULL << 63) /* globals and locals whose address escaped: any call may write */

static uint64_t slot_bit(int slot) {
  return 1ULL << (slot % 62);
}

/* A call we do not model may write globals, and memory reachable from its arguments. */
static uint64_t arg_roots(const gm_node *n) {
  if (!n)
    return 0;
  uint64_t m = n->kind == GM_N_VAR ? slot_bit(n->var) : 0;
  for (int i = 0; i < n->nkids; i++)
    m |= arg_roots(n->kids[i]);
  return m;
}

static void drop_memory_facts(state *s, const gm_node *call) {
  uint64_t roots = 0;
  for (int i = 0; call && i < call->nkids; i++)
    if (call->arg_writes & (1u << (i < 31 ? i : 31)))
      roots |= arg_roots(call->kids[i]);
  int w = 0;
  for (int i = 0; i < s->nfacts; i++) {
    uint64_t d = s->facts[i].deps;
    if ((d & GLOBAL_DEP) || ((d & MEMORY_DEP) && (d & roots)))
      continue;
    s->facts[w++] = s->facts[i];
  }
  s->nfacts = w;
}

struct engine;
static int slot_is_memory(const struct engine *e, int slot);

static void facts_invalidate(const struct engine *e, state *s, int slot) {
  uint64_t bit = slot_bit(slot) | (slot_is_memory(e, slot) ? MEMORY_DEP | GLOBAL_DEP : 0);
  int w = 0;
  for (int i = 0; i < s->nfacts; i++)
    if (!(s->facts[i].deps & bit))
      s->facts[w++] = s->facts[i];
  s->nfacts = w;
}

static void fact_push(state *s, fact_rec f) {
  if (s->nfacts == s->capfacts) {
    s->capfacts = s->capfacts ? s->capfacts * 2 : 4;
    s->facts = gm_xrealloc(s->facts, sizeof(fact_rec) * (size_t)s->capfacts);
  }
  s->facts[s->nfacts++] = f;
}

static void fact_add(state *s, uint64_t key, uint64_t deps, int truth) {
  fact_push(s, (fact_rec){key, deps, 0, 0, (unsigned char)truth, 0});
}

static uint64_t eq_key(uint64_t base, long long value) {
  return gm_hash64(&value, sizeof value, base ^ 0x9e3779b97f4a7c15ULL);
}

static void eq_fact_add(state *s, uint64_t base, uint64_t deps, long long value, int truth) {
  fact_push(s, (fact_rec){eq_key(base, value), deps, base, value, (unsigned char)truth, 1});
}

static int fact_find(const state *s, uint64_t key) {
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

/* Whether expression `base` equals `value` on this path: 1, 0, or -1 when nothing says. */
static int eq_find(const state *s, uint64_t base, long long value) {
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
  int w = 0;
  for (int i = 0; i < s->nobjs; i++) {
    obj *o = &s->objs[i];
    int keep = (o->state == OBJ_LIVE && !o->escaped && o->site) || obj_referenced(s, i, -1) ||
               o->param >= 0 || o->deref_param >= 0;
    if (!keep) {
      for (int k = 0; k < s->nslots && !keep; k++)
        keep = (s->slots[k].kind == V_RESULT || s->slots[k].kind == V_FREED ||
                s->slots[k].kind == V_OK) &&
               s->slots[k].ref == i;
    }
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
      return s->facts[i].truth == f->truth;
  return 0;
}

/* Equal memory and pointers; with_facts: the same branch decisions too. */
static int state_equal_as(const state *a, const state *b, int with_facts) {
  if (a->nobjs != b->nobjs || (with_facts && a->nfacts != b->nfacts))
    return 0;
  for (int i = 0; i < a->nobjs; i++) {
    const obj *x = &a->objs[i], *y = &b->objs[i];
    if (x->site != y->site || x->state != y->state || x->escaped != y->escaped ||
        x->param != y->param || x->deref_param != y->deref_param || x->freed_at != y->freed_at ||
        x->nonnull != y->nonnull || x->prefetched != y->prefetched)
      return 0;
  }
  int n = a->nslots > b->nslots ? a->nslots : b->nslots;
  for (int i = 0; i < n; i++) {
    val x = slot_get(a, i), y = slot_get(b, i);
    if (x.kind != y.kind || x.ref != y.ref || x.offset != y.offset)
      return 0;
    int ex = i < a->nslots && a->exposed[i], ey = i < b->nslots && b->exposed[i];
    if (ex != ey)
      return 0;
  }
  for (int i = 0; with_facts && i < a->nfacts; i++)
    if (!fact_exact(b, &a->facts[i]))
      return 0;
  return 1;
}

static int state_equal(const state *a, const state *b) {
  return state_equal_as(a, b, 1);
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
}

/* Appends s to l unless an equal state is there; keeps l within MAX_STATES. */
static void list_add(engine *e, state_list *l, state *s) {
  if (s->dead) {
    state_free(s);
    return;
  }
  state_gc(s);
  for (size_t i = 0; i < l->len; i++)
    if (state_equal(l->items[i], s)) {
      if (!s->error_path)
        l->items[i]->error_path = 0; /* one of the merged paths is the normal one */
      state_free(s);
      return;
    }
  if (l->len >= MAX_STATES) {
    for (size_t i = 0; i < l->len; i++)
      if (state_equal_as(l->items[i], s, 0)) {
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

static void list_move_all(engine *e, state_list *to, state_list *from) {
  for (size_t i = 0; i < from->len; i++)
    list_add(e, to, from->items[i]);
  GM_VEC_FREE(*from);
}

/* ---- paths (pseudo-variables for members and dereferences) ---- */

static char *path_text(engine *e, const gm_node *n) {
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

static int path_slot(engine *e, char *text) {
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
static int lvalue_slot(engine *e, const gm_node *n, int *owning) {
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
    return t ? path_slot(e, t) : -1;
  }
  return -1;
}

static const char *slot_name(engine *e, int slot) {
  if (slot < e->fn->nvars)
    return e->fn->vars[slot].name;
  return NULL;
}

/* The parameter whose pointee a path slot names ("*vN" for parameter N), or -1. */
static int slot_out_param(engine *e, int slot) {
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

/* ---- facts ---- */

/* A fact about an object: its allocation site, family and owner, and where it happened. */
static gm_fact fact_about(enum gm_fact_kind kind, const obj *o, const gm_node *at) {
  gm_fact f = {0};
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
        e->facts.items[i].alloc == f.alloc && e->facts.items[i].flag == f.flag)
      return;
  GM_PUSH(e->facts, f);
}

static int site_reported(engine *e, const gm_node *site) {
  for (size_t i = 0; i < e->reported.len; i++)
    if (e->reported.items[i] == site)
      return 1;
  return 0;
}

static void report_leak(engine *e, state *s, int id, const gm_node *at, enum gm_exit_kind how) {
  obj *o = &s->objs[id];
  o->escaped = 1; /* reported once; it no longer matters on this path */
  if (!o->site || e->summary_mode)
    return;
  gm_fact f = fact_about(GM_FACT_LEAK, o, at);
  f.exit = how;
  f.error_path = s->error_path;
  if ((how == GM_EXIT_REDECLARE || how == GM_EXIT_OVERWRITE) && s->skipped_by)
    f.skipped_by = s->skipped_by;
  if (site_reported(e, o->site)) {
    /* one finding per site: the normal path's leak, if there is one, outranks an error path's */
    for (size_t i = 0; i < e->facts.len && !f.error_path; i++)
      if (e->facts.items[i].kind == GM_FACT_LEAK && e->facts.items[i].alloc == o->site &&
          e->facts.items[i].error_path)
        e->facts.items[i] = f;
    return;
  }
  GM_PUSH(e->reported, o->site);
  add_fact(e, f);
}

static void escape_val(state *s, val v) {
  if (v.kind == V_OBJ && v.ref < s->nobjs)
    s->objs[v.ref].escaped = 1;
  if (v.kind == V_ADDR && v.ref < s->nslots) {
    /* the variable's address got away: what it holds now, or later, may be freed through it */
    val held = s->slots[v.ref];
    if (held.kind == V_OBJ && held.ref < s->nobjs)
      s->objs[held.ref].escaped = 1;
    s->exposed[v.ref] = 1;
  }
}

/* Stores v into slot, reporting the object the slot held if this loses its last pointer. */
static void assign_slot(engine *e, state *s, int slot, int owning, val v, const gm_node *at,
                        enum gm_exit_kind how) {
  val old = slot_get(s, slot);
  slot_set_raw(s, slot, v);
  if (s->exposed[slot])
    owning = 0;
  facts_invalidate(e, s, slot);
  if (v.kind == V_OBJ) {
    obj *o = &s->objs[v.ref];
    if (!o->owner)
      o->owner = slot_name(e, slot);
    if (!owning)
      o->escaped = 1;
  }
  if (old.kind == V_OBJ && !(v.kind == V_OBJ && v.ref == old.ref)) {
    obj *o = &s->objs[old.ref];
    if (o->state == OBJ_LIVE && !o->escaped && owning && !obj_referenced(s, old.ref, -1))
      report_leak(e, s, old.ref, at, how);
  }
}

/* ---- summaries lookup ---- */

static summary *summary_for(engine *e, const char *usr) {
  if (!usr)
    return NULL;
  uint64_t h = gm_hash64(usr, strlen(usr), 0);
  for (int i = 0; i < e->nsummaries; i++)
    if (e->summaries[i].usr_hash == h && strcmp(e->summaries[i].fn->usr, usr) == 0)
      return e->summaries[i].known ? &e->summaries[i] : NULL;
  return NULL;
}

/* ---- evaluation ---- */

static val eval(engine *e, state *s, const gm_node *n);

static val mk(int kind, int ref) {
  return (val){(unsigned char)kind, 0, ref};
}

static void do_free(engine *e, state *s, const gm_node *call, val v, const gm_fn *row,
                    const char *via) {
  if (v.kind != V_OBJ)
    return; /* null, unknown or not a pointer we know: nothing to judge */
  obj *o = &s->objs[v.ref];
  if (o->state == OBJ_FAILED)
    return;
  if (o->state == OBJ_FREED) {
    if (o->param < 0 || !e->summary_mode) {
      gm_fact f = fact_about(GM_FACT_DOUBLE_FREE, o, call);
      f.first_free = o->freed_at;
      f.free_name = row->name;
      f.via = via;
      add_fact(e, f);
    }
    return;
  }
  if (v.offset) {
    gm_fact f = fact_about(GM_FACT_OFFSET_FREE, o, call);
    f.free_name = row->name;
    f.via = via;
    if (o->site)
      add_fact(e, f);
  } else if (o->family && !gm_fn_frees_family(row, o->family)) {
    gm_fact f = fact_about(GM_FACT_MISMATCH, o, call);
    f.free_name = row->name;
    f.free_families = row->frees;
    f.nfree_families = row->nfrees;
    f.via = via;
    add_fact(e, f);
  }
  o->state = OBJ_FREED;
  o->freed_at = call;
  o->freed_by = row;
  o->freed_via = via ? via : row->name;
}

/* Binds a fresh object to the lvalue an out-parameter argument designates. */
static void bind_out_arg(engine *e, state *s, const gm_node *arg, const char *field, int id,
                         const gm_node *call) {
  const gm_node *lv = NULL;
  char *text = NULL;
  int owning = 0, slot = -1;
  if (arg && arg->kind == GM_N_ADDR) {
    lv = gm_kid(arg, 0);
  } else if (arg) {
    /* `cudaMalloc(out, n)` with `T **out`: the pointee of out receives it */
    char *base = path_text(e, arg);
    if (base)
      text = gm_xasprintf("*%s", base);
    free(base);
  }
  if (lv && !field) {
    slot = lvalue_slot(e, lv, &owning);
  } else {
    if (lv)
      text = path_text(e, lv);
    if (text && field) {
      char *t = gm_xasprintf("%s.%s", text, field);
      free(text);
      text = t;
    }
    slot = text ? path_slot(e, text) : -1;
    owning = 0;
    if (lv && lv->kind == GM_N_VAR && field) {
      /* cudaMalloc3D(&pitched, ...): the struct is local, so its .ptr is owned here */
      const gm_var *v = &e->fn->vars[lv->var];
      owning = v->kind == GM_VAR_LOCAL || v->kind == GM_VAR_PARAM;
      s->objs[id].owner = v->name;
    }
  }
  if (slot < 0) {
    s->objs[id].escaped = 1;
    return;
  }
  assign_slot(e, s, slot, owning, mk(V_OBJ, id), call, GM_EXIT_OVERWRITE);
}

static int new_alloc(state *s, const gm_node *site, const gm_family *fam, int from_return) {
  obj o = {0};
  o.site = site;
  o.family = fam;
  o.param = -1;
  o.deref_param = -1;
  o.state = OBJ_LIVE;
  o.from_return = (unsigned char)from_return;
  return obj_new(s, o);
}

static int is_managed(const state *s, val v) {
  return v.kind == V_OBJ && s->objs[v.ref].family && s->objs[v.ref].family->managed;
}

/* Host code touching memory: GM031's evidence. Kernels and device functions do not count. */
static void note_host_touch(engine *e, state *s, val v, const gm_node *at) {
  if (v.kind != V_OBJ || e->fn->is_kernel || e->fn->is_device)
    return;
  const obj *o = &s->objs[v.ref];
  if (e->summary_mode && o->param >= 0 && o->param < e->fn->nparams && e->obs.host_touch)
    e->obs.host_touch[o->param] = at; /* a helper that touches its parameter on the host */
  if (!is_managed(s, v) || !o->site)
    return;
  add_fact(e, fact_about(GM_FACT_MANAGED_HOST, o, at));
}

/* Memory handed to a kernel parameter: a managed allocation becomes a GM030/GM031 fact; a
 * parameter of the function being summarised records that the helper launches it. */
static void note_launch_arg(engine *e, state *s, val v, const gm_node *launch, const char *usr,
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
  gm_fact f = fact_about(GM_FACT_MANAGED_LAUNCH, o, launch);
  f.flag = o->prefetched;
  f.kernel_usr = usr;
  f.kernel_name = kname;
  f.kernel_param = param;
  f.via_call = via;
  add_fact(e, f);
}

static void note_prefetch(engine *e, state *s, val v, const gm_node *at) {
  if (v.kind != V_OBJ)
    return;
  obj *o = &s->objs[v.ref];
  o->prefetched = 1;
  if (!is_managed(s, v) || !o->site)
    return;
  add_fact(e, fact_about(GM_FACT_MANAGED_PREFETCH, o, at));
}

/* cudaLaunchKernel(kernel, grid, block, args, ...): args names an array initialised with the
 * addresses of the kernel's arguments. */
static void launch_through_api(engine *e, state *s, const gm_node *n) {
  const gm_node *kernel = gm_arg(n, 0);
  const gm_node *args = gm_arg(n, 3);
  if (!kernel || !args || args->kind != GM_N_VAR || !e->array_init || !e->array_init[args->var])
    return;
  const gm_node *list = e->array_init[args->var];
  for (int i = 0; i < list->nkids; i++) {
    const gm_node *el = list->kids[i];
    if (el && el->kind == GM_N_ADDR && gm_kid(el, 0) && el->kids[0]->kind == GM_N_VAR)
      note_launch_arg(e, s, slot_get(s, el->kids[0]->var), n, kernel->callee_usr, kernel->name, i,
                      NULL);
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
        note_launch_arg(c->e, c->s, slot_get(c->s, v), n, n->callee_usr, n->name, i, c->made_at);
        break;
      }
  }
}

static void note_lambda_launches(engine *e, state *s, const gm_node *lambda_node) {
  if (!lambda_node->callee_usr)
    return;
  for (int i = 0; i < e->tu->nfuncs; i++)
    if (strcmp(e->tu->funcs[i]->usr, lambda_node->callee_usr) == 0) {
      struct lambda_launch_ctx c = {e, s, e->tu->funcs[i], lambda_node};
      gm_walk(e->tu->funcs[i]->body, lambda_launch_visit, &c);
      return;
    }
}

/* Calls that use their pointer arguments and keep none: a borrower in the table, or a free
 * function declared in a system header (the toolkit, libc, libstdc++) that the table does not
 * list as anything else. Member functions of system classes (push_back, reset) may keep what
 * they get, so they stay escapes. */
static int borrows(const gm_node *n) {
  if (n->fn)
    return n->fn->kind == GM_FN_BORROW;
  return n->in_system && !n->is_method;
}

static int is_identity(const gm_node *n) {
  return n->nkids == 1 && n->name &&
         (strcmp(n->name, "move") == 0 || strcmp(n->name, "forward") == 0);
}

/* `exit(0)` or `exit(EXIT_SUCCESS)` in main: the program ends as a `return 0` ends it. */
static int success_exit(const engine *e, const gm_node *call) {
  if (e->summary_mode || !e->fn->name || strcmp(e->fn->name, "main") != 0 || !call->name)
    return 0;
  if (strcmp(call->name, "exit") != 0 && strcmp(call->name, "_exit") != 0 &&
      strcmp(call->name, "_Exit") != 0 && strcmp(call->name, "quick_exit") != 0)
    return 0;
  const gm_node *status = gm_arg(call, 0);
  return status && (status->kind == GM_N_NULL || (status->has_value && status->value == 0));
}

/* The slot holding what a `T **` argument points at: `&p` names p, a `T **q` names *q. */
static int pointee_slot(engine *e, const gm_node *arg, val v) {
  if (v.kind == V_ADDR)
    return v.ref;
  char *base = path_text(e, arg);
  if (!base)
    return -1;
  char *t = gm_xasprintf("*%s", base);
  free(base);
  return path_slot(e, t);
}

static void check_exit(engine *e, state *s, const gm_node *at, enum gm_exit_kind how);

/* A call got the variable's address and may have written it: what it held is out of our hands,
 * and branch decisions that read it no longer hold. */
static void forget_variable(engine *e, state *s, int slot) {
  escape_val(s, slot_get(s, slot));
  slot_set_raw(s, slot, mk(V_UNKNOWN, 0));
  facts_invalidate(e, s, slot);
}

static val eval_call(engine *e, state *s, const gm_node *n) {
  const gm_fn *row = n->fn;
  summary *sum = row ? NULL : summary_for(e, n->callee_usr);
  int out_arg = -1;
  if (row && row->kind == GM_FN_ALLOC && row->ptr_arg >= 0)
    out_arg = row->ptr_arg;
  val *args = gm_xcalloc((size_t)(n->nkids ? n->nkids : 1), sizeof(val));
  for (int i = 0; i < n->nkids; i++) {
    if (i == out_arg)
      continue;
    if (sum && i < sum->nparams && sum->params[i].effect == P_OUT_ALLOC)
      continue;
    args[i] = eval(e, s, n->kids[i]);
  }
  val result = mk(V_UNKNOWN, 0);
  if (n->noreturn || (sum && sum->noreturn)) {
    if (success_exit(e, n))
      check_exit(e, s, n, GM_EXIT_PROCESS); /* `exit(0)` ends main as `return 0` does */
    s->dead = 1;
  } else if (row && (row->kind == GM_FN_ALLOC || row->kind == GM_FN_REALLOC)) {
    int id = new_alloc(s, n, row->family, row->ptr_arg == GM_ARG_RETURN);
    if (row->kind == GM_FN_REALLOC && row->old_arg < n->nkids) {
      /* the old block is released on success and kept on failure: stop judging it */
      escape_val(s, args[row->old_arg]);
    }
    if (row->ptr_arg == GM_ARG_RETURN) {
      result = mk(V_OBJ, id);
    } else if (row->ptr_arg < n->nkids) {
      bind_out_arg(e, s, n->kids[row->ptr_arg], row->ptr_field, id, n);
      result = mk(V_RESULT, id);
    } else {
      s->objs[id].escaped = 1;
    }
  } else if (row && row->kind == GM_FN_FREE) {
    if (row->ptr_arg < n->nkids) {
      val v = args[row->ptr_arg];
      do_free(e, s, n, v, row, NULL);
      if (v.kind == V_OBJ && s->objs[v.ref].freed_at == n)
        result = mk(V_FREED, v.ref);
    }
  } else if (row && (row->kind == GM_FN_USE || row->kind == GM_FN_COPY)) {
    /* reads or writes through its pointers; ownership stays here */
    drop_memory_facts(s, n);
    int host = strncmp(row->name, "cu", 2) != 0; /* memcpy, memset: the host touches it */
    for (int i = 0; host && i < n->nkids; i++)
      note_host_touch(e, s, args[i], n);
  } else if (row && row->kind == GM_FN_PREFETCH) {
    if (n->nkids)
      note_prefetch(e, s, args[0], n);
  } else if (row && row->kind == GM_FN_LAUNCH) {
    launch_through_api(e, s, n);
  } else if (n->is_launch) {
    /* kernel arguments are used on the device, not taken over */
    for (int i = 0; i < n->nkids; i++)
      note_launch_arg(e, s, args[i], n, n->callee_usr, n->name, i, NULL);
  } else if (sum) {
    for (int i = 0; i < n->nkids; i++) {
      const param_summary *p = i < sum->nparams ? &sum->params[i] : NULL;
      if (!p || p->effect == P_ESCAPES) {
        escape_val(s, args[i]);
        if (args[i].kind == V_ADDR)
          forget_variable(e, s, args[i].ref);
      } else if (p->effect == P_FREES) {
        do_free(e, s, n, args[i], &p->free_row, p->via);
        int owning, slot = p->nulls ? lvalue_slot(e, n->kids[i], &owning) : -1;
        if (slot >= 0) {
          slot_set_raw(s, slot, mk(V_NULL, 0));
          facts_invalidate(e, s, slot);
        }
      } else if (p->effect == P_FREES_DEREF) {
        int slot = pointee_slot(e, n->kids[i], args[i]);
        if (slot >= 0) {
          do_free(e, s, n, slot_get(s, slot), &p->free_row, p->via);
          if (p->nulls) {
            slot_set_raw(s, slot, mk(V_NULL, 0));
            facts_invalidate(e, s, slot);
          }
        }
      }
      if (p && p->prefetches)
        note_prefetch(e, s, args[i], n);
      if (p && p->host_touch)
        note_host_touch(e, s, args[i], n); /* the helper reads or writes it on the host */
      if (p && p->launch && args[i].kind == V_OBJ && !s->objs[args[i].ref].prefetched)
        note_launch_arg(e, s, args[i], p->launch, p->kernel_usr, p->kernel_name, p->kernel_param,
                        n);
      if (p && p->effect == P_OUT_ALLOC) {
        int id = new_alloc(s, n, p->family, 0);
        bind_out_arg(e, s, n->kids[i], NULL, id, n);
        /* a create helper's status, as cudaMalloc's: a failure allocated nothing */
        if (!sum->returns_fresh && result.kind == V_UNKNOWN)
          result = mk(n->returns_bool ? V_OK : V_RESULT, id);
      }
    }
    if (sum->returns_fresh)
      result = mk(V_OBJ, new_alloc(s, n, sum->returns_fresh, 1));
    drop_memory_facts(s, n);
  } else if (borrows(n)) {
    /* the toolkit, libc, a declared borrower: uses what it is given and keeps none of it */
    if (n->in_system && !row && is_identity(n))
      result = args[0]; /* std::move(p), std::forward<T>(p) */
    for (int i = 0; i < n->nkids; i++) {
      if (args[i].kind == V_ADDR)
        forget_variable(e, s, args[i].ref); /* it may write it: cudaStreamCreate(&s) */
    }
    drop_memory_facts(s, n);
  } else {
    /* unknown callee, or a sink: it may keep or free what it is given */
    for (int i = 0; i < n->nkids; i++) {
      if (row && row->kind == GM_FN_SINK && row->ptr_arg != GM_ARG_NONE && row->ptr_arg != i)
        continue; /* a sink takes one argument and borrows the rest */
      escape_val(s, args[i]);
      if (args[i].kind == V_ADDR)
        forget_variable(e, s, args[i].ref);
    }
    /* globals and members may have changed: forget branch facts that read them */
    drop_memory_facts(s, n);
  }
  free(args);
  return result;
}

static val eval(engine *e, state *s, const gm_node *n) {
  val unknown = mk(V_UNKNOWN, 0);
  if (!n || s->dead)
    return unknown;
  e->steps++;
  switch (n->kind) {
  case GM_N_NULL:
    return mk(V_NULL, 0);
  case GM_N_CONST:
    return mk(V_CONST, 0);
  case GM_N_VAR:
    return slot_get(s, n->var);
  case GM_N_FIELD:
  case GM_N_DEREF: {
    if (n->kind == GM_N_DEREF) {
      /* *p and *(p + i): a host access to what p points at */
      const gm_node *ptr = gm_kid(n, 0);
      val pv = ptr && ptr->kind == GM_N_VAR ? slot_get(s, ptr->var)
               : ptr && ptr->kind == GM_N_ARITH && gm_kid(ptr, 0) && ptr->kids[0]->kind == GM_N_VAR
                   ? slot_get(s, ptr->kids[0]->var)
                   : mk(V_UNKNOWN, 0);
      note_host_touch(e, s, pv, n);
    }
    if (n->kind == GM_N_FIELD && gm_kid(n, 0) && n->kids[0]->kind == GM_N_VAR)
      note_host_touch(e, s, slot_get(s, n->kids[0]->var), n); /* p->field */
    int owning;
    int slot = lvalue_slot(e, n, &owning);
    if (slot >= 0 && slot < s->nslots)
      return s->slots[slot];
    if (n->kind == GM_N_DEREF || gm_kid(n, 0))
      (void)eval(e, s, gm_kid(n, 0));
    return unknown;
  }
  case GM_N_INDEX: {
    val base = eval(e, s, gm_kid(n, 0));
    note_host_touch(e, s, base, n);
    (void)eval(e, s, gm_kid(n, 1));
    return unknown;
  }
  case GM_N_ADDR: {
    int owning;
    const gm_node *lv = gm_kid(n, 0);
    int slot = lvalue_slot(e, lv, &owning);
    if (slot >= 0) {
      slot_set_raw(s, slot, slot_get(s, slot)); /* materialise the slot so it can be exposed */
      return mk(V_ADDR, slot);
    }
    if (lv && lv->kind == GM_N_INDEX) {
      /* &p[i] points into p, as p + i does */
      val base = eval(e, s, gm_kid(lv, 0));
      (void)eval(e, s, gm_kid(lv, 1));
      const gm_node *index = gm_kid(lv, 1);
      if (base.kind == V_OBJ && !(index && index->has_value && index->value == 0))
        base.offset = 1;
      return base.kind == V_OBJ ? base : unknown;
    }
    (void)eval(e, s, gm_kid(n, 0));
    return unknown;
  }
  case GM_N_CALL:
    return eval_call(e, s, n);
  case GM_N_ASSIGN: {
    val v = eval(e, s, gm_kid(n, 1));
    int owning;
    const gm_node *lhs = gm_kid(n, 0);
    int slot = lvalue_slot(e, lhs, &owning);
    if (slot < 0) {
      if (lhs && lhs->kind == GM_N_INDEX) {
        val base = eval(e, s, gm_kid(lhs, 0));
        note_host_touch(e, s, base, lhs);
        (void)eval(e, s, gm_kid(lhs, 1));
      }
      escape_val(s, v);
      return v;
    }
    if (n->op) { /* p += k: same object, now an interior pointer */
      val old = slot_get(s, slot);
      if (old.kind == V_OBJ)
        old.offset = 1;
      else
        old = unknown;
      slot_set_raw(s, slot, old);
      facts_invalidate(e, s, slot);
      return old;
    }
    assign_slot(e, s, slot, owning, v, n, GM_EXIT_OVERWRITE);
    return v;
  }
  case GM_N_DECL: {
    if (n->nkids && n->kids[0]->kind == GM_N_AGGREGATE && e->array_init)
      e->array_init[n->var] = n->kids[0];
    val v = n->nkids ? eval(e, s, n->kids[0]) : unknown;
    const gm_var *var = &e->fn->vars[n->var];
    int owning = var->kind == GM_VAR_LOCAL || var->kind == GM_VAR_PARAM;
    if (var->kind == GM_VAR_GLOBAL && !n->nkids)
      return unknown; /* `static T *p;` keeps its value across calls */
    assign_slot(e, s, n->var, owning, v, n, GM_EXIT_REDECLARE);
    return v;
  }
  case GM_N_INCDEC: {
    int owning;
    int slot = lvalue_slot(e, gm_kid(n, 0), &owning);
    if (slot < 0) {
      (void)eval(e, s, gm_kid(n, 0));
      return unknown;
    }
    val old = slot_get(s, slot);
    if (old.kind == V_OBJ)
      old.offset = 1;
    else
      old = unknown;
    slot_set_raw(s, slot, old);
    facts_invalidate(e, s, slot);
    return old;
  }
  case GM_N_ARITH: {
    val a = eval(e, s, gm_kid(n, 0));
    val b = eval(e, s, gm_kid(n, 1));
    int ptr_arith = n->op == '+' || n->op == '-';
    if (ptr_arith && a.kind == V_OBJ && b.kind != V_OBJ) {
      a.offset = 1;
      return a;
    }
    if (n->op == '+' && b.kind == V_OBJ && a.kind != V_OBJ) {
      b.offset = 1;
      return b;
    }
    return unknown;
  }
  case GM_N_COND: {
    (void)eval(e, s, gm_kid(n, 0));
    if (s->dead)
      return unknown;
    /* an arm that never returns leaves the other as the only way on; each arm is evaluated
     * once (nested ?: stays linear) */
    state *before = state_copy(s);
    val a = eval(e, s, gm_kid(n, 1));
    if (s->dead) {
      val b = eval(e, before, gm_kid(n, 2));
      state_swap(s, before);
      state_free(before);
      return b;
    }
    state_free(before);
    state *after_a = state_copy(s);
    val b = eval(e, s, gm_kid(n, 2));
    if (s->dead) {
      state_swap(s, after_a);
      state_free(after_a);
      return a;
    }
    state_free(after_a);
    if (a.kind == V_OBJ && (b.kind == V_NULL || (b.kind == V_OBJ && b.ref == a.ref)))
      return a;
    if (b.kind == V_OBJ && a.kind == V_NULL)
      return b;
    escape_val(s, a);
    escape_val(s, b);
    return unknown;
  }
  case GM_N_COMMA: {
    val v = unknown;
    for (int i = 0; i < n->nkids; i++)
      v = eval(e, s, n->kids[i]);
    return v;
  }
  case GM_N_LAMBDA:
    note_lambda_launches(e, s, n);
    /* captured variables: by reference, the lambda may free what they hold later */
    for (int i = 0; i < n->nkids; i++) {
      int var = n->kids[i]->var;
      escape_val(s, slot_get(s, var));
      slot_set_raw(s, var, slot_get(s, var));
      s->exposed[var] = 1;
    }
    return unknown;
  case GM_N_AGGREGATE:
    for (int i = 0; i < n->nkids; i++)
      escape_val(s, eval(e, s, n->kids[i]));
    return unknown;
  case GM_N_THROW:
    for (int i = 0; i < n->nkids; i++)
      (void)eval(e, s, n->kids[i]);
    s->dead = 1;
    return unknown;
  case GM_N_SEQ:
  case GM_N_IF:
  case GM_N_LOOP:
  case GM_N_SWITCH:
  case GM_N_CASE:
  case GM_N_RETURN:
  case GM_N_BREAK:
  case GM_N_CONTINUE:
  case GM_N_GOTO:
  case GM_N_LABEL:
  case GM_N_NOP:
    /* statements inside expressions (GNU statement expressions): not followed */
    return unknown;
  case GM_N_LAND:
  case GM_N_LOR:
  case GM_N_NOT:
  case GM_N_CMP:
  case GM_N_OTHER:
  default:
    for (int i = 0; i < n->nkids; i++) {
      val v = eval(e, s, n->kids[i]);
      if (n->kind == GM_N_OTHER)
        escape_val(s, v); /* an operation we do not model may keep the pointer */
    }
    return unknown;
  }
}

/* ---- conditions ---- */

static int is_pure(const gm_node *n, uint64_t *deps, const engine *e) {
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

static uint64_t node_key(const gm_node *n, uint64_t h) {
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

static void cond_split(engine *e, state *s, const gm_node *c, state_list *t, state_list *f) {
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
      (void)eval(e, s, c->kids[i]);
    if (s->dead) {
      state_free(s);
      return;
    }
    cond_split(e, s, c->nkids ? c->kids[c->nkids - 1] : NULL, t, f);
    return;
  case GM_N_CMP:
    if (c->op == '=' || c->op == '!') {
      const gm_node *a = c->kids[0], *b = c->kids[1];
      val va = eval(e, s, a);
      val vb = eval(e, s, b);
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
      if (split_on_equality(e, s, c, t, f))
        return;
      branch_on_value(e, s, mk(V_UNKNOWN, 0), c, t, f);
      return;
    }
    break;
  default:
    break;
  }
  val v = eval(e, s, c);
  if (s->dead) {
    state_free(s);
    return;
  }
  branch_on_value(e, s, v, c, t, f);
}

/* ---- statements ---- */

static void exec(engine *e, state_list *in, const gm_node *n, flow_out *out);

static void check_exit(engine *e, state *s, const gm_node *at, enum gm_exit_kind how) {
  for (int i = 0; i < s->nobjs; i++) {
    obj *o = &s->objs[i];
    if (o->state == OBJ_LIVE && !o->escaped && o->site)
      report_leak(e, s, i, at, how);
  }
}

static void observe_exit(engine *e, state *s, val ret) {
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

/* `for (i = 0; i < 4; i++)`: a counter set to a constant and compared with a constant that
 * lets it in, so the body runs at least once. */
/* The counter a for loop's init sets to a constant: its variable and start, or -1. */
static int loop_counter(const gm_node *loop, long long *start_value) {
  const gm_node *init = gm_kid(loop, 0);
  if (loop->op != GM_LOOP_FOR || !init)
    return -1;
  while (init && (init->kind == GM_N_SEQ || init->kind == GM_N_COMMA) && init->nkids == 1)
    init = init->kids[0];
  int var;
  const gm_node *start;
  if (init && init->kind == GM_N_DECL && init->nkids == 1)
    var = init->var, start = init->kids[0];
  else if (init && init->kind == GM_N_ASSIGN && !init->op && gm_kid(init, 0) &&
           init->kids[0]->kind == GM_N_VAR)
    var = init->kids[0]->var, start = gm_kid(init, 1);
  else
    return -1;
  if (!start || !start->has_value)
    return -1;
  *start_value = start->value;
  return var;
}

/* Whether anything under n writes variable var (assigns it, steps it, takes its address). */
static int writes_var(const gm_node *n, int var) {
  if (!n)
    return 0;
  if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) &&
      gm_root_var(gm_kid(n, 0)) == var)
    return 1;
  for (int i = 0; i < n->nkids; i++)
    if (writes_var(n->kids[i], var))
      return 1;
  return 0;
}

/* `for (i = K; ...; i++)` whose body leaves i alone: i equals K on the first pass only, so
 * `if (i == K)` in the body is taken once (a free on the first step is not repeated). */
static int monotonic_counter(const gm_node *loop, long long *start_value) {
  int var = loop_counter(loop, start_value);
  const gm_node *inc = gm_kid(loop, 2);
  if (var < 0 || !inc || gm_root_var(gm_kid(inc, 0)) != var)
    return -1;
  if (inc->kind == GM_N_ASSIGN &&
      !(inc->op && gm_kid(inc, 1) && inc->kids[1]->has_value && inc->kids[1]->value != 0 &&
        inc->name && (strcmp(inc->name, "+=") == 0 || strcmp(inc->name, "-=") == 0)))
    return -1;
  if (inc->kind != GM_N_ASSIGN && inc->kind != GM_N_INCDEC)
    return -1;
  return writes_var(gm_kid(loop, 3), var) || writes_var(gm_kid(loop, 1), var) ? -1 : var;
}

static int counted_loop_enters(const gm_node *loop) {
  const gm_node *cond = gm_kid(loop, 1);
  long long start_value;
  int var = loop_counter(loop, &start_value);
  if (var < 0 || !cond || cond->kind != GM_N_CMP || !cond->name)
    return 0;
  const gm_node *lhs = gm_kid(cond, 0), *rhs = gm_kid(cond, 1);
  if (!lhs || lhs->kind != GM_N_VAR || lhs->var != var || !rhs || !rhs->has_value)
    return 0;
  long long a = start_value, b = rhs->value;
  const char *op = cond->name;
  return (strcmp(op, "<") == 0 && a < b) || (strcmp(op, "<=") == 0 && a <= b) ||
         (strcmp(op, ">") == 0 && a > b) || (strcmp(op, ">=") == 0 && a >= b) ||
         (strcmp(op, "!=") == 0 && a != b);
}

static void exec_loop(engine *e, state_list *in, const gm_node *n, flow_out *out) {
  flow_out init = {0};
  exec(e, in, gm_kid(n, 0), &init);
  list_move_all(e, &out->brk, &init.brk); /* not expected in an init, kept for safety */
  list_move_all(e, &out->cont, &init.cont);
  state_list cur = init.next;
  state_list exits = {0};
  state_list seen = {0};
  const gm_node *cond = gm_kid(n, 1);
  int enters = counted_loop_enters(n);
  long long first;
  int counter = monotonic_counter(n, &first);
  uint64_t counter_key = 0;
  if (counter >= 0) {
    gm_node counter_ref = {0};
    counter_ref.kind = GM_N_VAR;
    counter_ref.var = counter;
    counter_ref.name = e->fn->vars[counter].name; /* as the front end names a variable */
    counter_key = node_key(&counter_ref, 0);
    for (size_t i = 0; i < cur.len; i++)
      eq_fact_add(cur.items[i], counter_key, slot_bit(counter), first, 1);
  }
  for (int round = 0; round < LOOP_ROUNDS && cur.len; round++) {
    state_list t = {0};
    if ((n->op == GM_LOOP_DO || enters) && round == 0) {
      t = cur;
    } else {
      for (size_t i = 0; i < cur.len; i++) {
        if (cond || n->op == GM_LOOP_RANGE)
          cond_split(e, cur.items[i], cond, &t, &exits);
        else
          list_add(e, &t, cur.items[i]);
      }
      GM_VEC_FREE(cur);
      if (n->op == GM_LOOP_RANGE && !cond) {
        /* a range loop may run no times at all */
        for (size_t i = 0; i < t.len; i++)
          list_add(e, &exits, state_copy(t.items[i]));
      }
    }
    memset(&cur, 0, sizeof cur);
    flow_out body = {0};
    exec(e, &t, gm_kid(n, 3), &body);
    for (size_t i = 0; i < body.next.len; i++)
      body.next.items[i]->skipped_by = NULL; /* this iteration ran to its end */
    list_move_all(e, &exits, &body.brk);
    list_move_all(e, &body.next, &body.cont);
    flow_out inc = {0};
    exec(e, &body.next, gm_kid(n, 2), &inc);
    for (size_t i = 0; counter >= 0 && i < inc.next.len; i++)
      eq_fact_add(inc.next.items[i], counter_key, slot_bit(counter), first, 0);
    list_free(&inc.brk);
    list_free(&inc.cont);
    /* states already seen at the loop head add nothing new */
    for (size_t i = 0; i < inc.next.len; i++) {
      state *s = inc.next.items[i];
      int dup = 0;
      for (size_t k = 0; k < seen.len && !dup; k++)
        dup = state_equal(seen.items[k], s);
      if (dup) {
        state_free(s);
      } else {
        list_add(e, &seen, state_copy(s));
        list_add(e, &cur, s);
      }
    }
    GM_VEC_FREE(inc.next);
  }
  /* states still looping after the last round leave when the condition fails */
  for (size_t i = 0; i < cur.len; i++) {
    if (cond) {
      state_list t = {0};
      cond_split(e, cur.items[i], cond, &t, &exits);
      list_free(&t);
    } else if (n->op == GM_LOOP_RANGE) {
      list_add(e, &exits, cur.items[i]);
    } else {
      state_free(cur.items[i]);
    }
  }
  GM_VEC_FREE(cur);
  list_free(&seen);
  list_move_all(e, &out->next, &exits);
}

/* The constants of a switch's own cases (not those of a switch nested in it). */
static void collect_cases(const gm_node *n, struct switch_ctx *sw) {
  if (!n || n->kind == GM_N_SWITCH)
    return;
  if (n->kind == GM_N_CASE && !n->op && n->has_value)
    GM_PUSH(sw->values, n->value);
  for (int i = 0; i < n->nkids; i++)
    collect_cases(n->kids[i], sw);
}

/* Which case label an entry state may reach: with a remembered condition, only the case whose
 * constant it equals (two switches on one `kind` pair case by case). Adds what the label
 * implies to the state; returns 0 when the state cannot reach the label. */
static int case_admits(const struct switch_ctx *sw, const gm_node *label, state *s) {
  if (!sw->pure)
    return 1;
  if (!label->op) {
    if (!label->has_value)
      return 1;
    int known = eq_find(s, sw->base, label->value);
    if (known == 0)
      return 0;
    if (known < 0)
      eq_fact_add(s, sw->base, sw->deps, label->value, 1);
    return 1;
  }
  for (size_t i = 0; i < sw->values.len; i++)
    if (eq_find(s, sw->base, sw->values.items[i]) == 1)
      return 0; /* it goes to that case, not to default */
  for (size_t i = 0; i < sw->values.len; i++)
    if (eq_find(s, sw->base, sw->values.items[i]) < 0)
      eq_fact_add(s, sw->base, sw->deps, sw->values.items[i], 0);
  return 1;
}

static void exec_switch(engine *e, state_list *in, const gm_node *n, flow_out *out) {
  state_list entries = {0};
  for (size_t i = 0; i < in->len; i++) {
    state *s = in->items[i];
    (void)eval(e, s, gm_kid(n, 0));
    list_add(e, &entries, s);
  }
  GM_VEC_FREE(*in);
  struct switch_ctx sw = {&entries, 0, 0, 0, {0}};
  sw.pure = gm_kid(n, 0) && is_pure(gm_kid(n, 0), &sw.deps, e);
  sw.base = sw.pure ? node_key(gm_kid(n, 0), 0) : 0;
  sw.pure = sw.pure && retested(e, sw.base); /* one switch alone needs no memory of its cases */
  collect_cases(gm_kid(n, 1), &sw);
  GM_PUSH(e->switch_entries, &sw);
  int has_default = 0;
  /* find a default label among the body's direct statements */
  const gm_node *body = gm_kid(n, 1);
  for (int i = 0; body && i < body->nkids; i++)
    for (const gm_node *k = body->kids[i]; k && k->kind == GM_N_CASE; k = gm_kid(k, 0))
      if (k->op)
        has_default = 1;
  state_list none = {0};
  flow_out r = {0};
  exec(e, &none, body, &r);
  e->switch_entries.len--;
  list_move_all(e, &out->next, &r.next);
  list_move_all(e, &out->next, &r.brk);
  list_move_all(e, &out->cont, &r.cont);
  if (!has_default) {
    /* no case matched: as a default label at the end would see it */
    gm_node none_matched = {0};
    none_matched.kind = GM_N_CASE;
    none_matched.op = 1;
    for (size_t i = 0; i < entries.len; i++) {
      if (case_admits(&sw, &none_matched, entries.items[i]))
        list_add(e, &out->next, entries.items[i]);
      else
        state_free(entries.items[i]);
    }
    GM_VEC_FREE(entries);
  } else {
    list_free(&entries);
  }
  GM_VEC_FREE(sw.values);
}

static void exec(engine *e, state_list *in, const gm_node *n, flow_out *out) {
  if (!n) {
    list_move_all(e, &out->next, in);
    return;
  }
  if (e->steps > STEP_BUDGET) {
    e->truncated = GM_CUT_STEPS;
    list_free(in);
    return;
  }
  switch (n->kind) {
  case GM_N_SEQ: {
    state_list cur = *in;
    memset(in, 0, sizeof *in);
    for (int i = 0; i < n->nkids; i++) {
      flow_out r = {0};
      exec(e, &cur, n->kids[i], &r);
      list_move_all(e, &out->brk, &r.brk);
      list_move_all(e, &out->cont, &r.cont);
      cur = r.next;
    }
    list_move_all(e, &out->next, &cur);
    return;
  }
  case GM_N_IF:
  case GM_N_COND: {
    /* `c ? a : b;` as a statement (glibc's C++ assert, check macros) branches as `if` does, so
     * an arm that never returns ends only its own path, and the other knows how c came out */
    state_list t = {0}, f = {0};
    for (size_t i = 0; i < in->len; i++)
      cond_split(e, in->items[i], gm_kid(n, 0), &t, &f);
    GM_VEC_FREE(*in);
    flow_out r1 = {0}, r2 = {0};
    exec(e, &t, gm_kid(n, 1), &r1);
    exec(e, &f, gm_kid(n, 2), &r2);
    list_move_all(e, &out->next, &r1.next);
    list_move_all(e, &out->next, &r2.next);
    list_move_all(e, &out->brk, &r1.brk);
    list_move_all(e, &out->brk, &r2.brk);
    list_move_all(e, &out->cont, &r1.cont);
    list_move_all(e, &out->cont, &r2.cont);
    return;
  }
  case GM_N_LOOP:
    exec_loop(e, in, n, out);
    return;
  case GM_N_TRY: {
    /* A handler may be entered from anywhere in the try block: model its two ends, before
     * anything in it ran and after all of it did. */
    state_list entry = {0};
    for (size_t i = 0; i < in->len; i++)
      GM_PUSH(entry, state_copy(in->items[i]));
    flow_out body = {0};
    exec(e, in, gm_kid(n, 0), &body);
    list_move_all(e, &out->brk, &body.brk);
    list_move_all(e, &out->cont, &body.cont);
    for (int h = 1; h < n->nkids; h++) {
      state_list hin = {0};
      for (size_t i = 0; i < entry.len; i++)
        list_add(e, &hin, state_copy(entry.items[i]));
      for (size_t i = 0; i < body.next.len; i++)
        list_add(e, &hin, state_copy(body.next.items[i]));
      for (size_t i = 0; i < hin.len; i++)
        hin.items[i]->error_path = 1; /* something threw */
      flow_out r = {0};
      exec(e, &hin, n->kids[h], &r);
      list_move_all(e, &out->next, &r.next);
      list_move_all(e, &out->brk, &r.brk);
      list_move_all(e, &out->cont, &r.cont);
    }
    list_move_all(e, &out->next, &body.next);
    list_free(&entry);
    return;
  }
  case GM_N_SWITCH:
    exec_switch(e, in, n, out);
    return;
  case GM_N_CASE: {
    if (e->switch_entries.len) {
      struct switch_ctx *sw = e->switch_entries.items[e->switch_entries.len - 1];
      for (size_t i = 0; i < sw->entries->len; i++) {
        state *c = state_copy(sw->entries->items[i]);
        if (case_admits(sw, n, c))
          list_add(e, in, c);
        else
          state_free(c);
      }
    }
    exec(e, in, gm_kid(n, 0), out);
    return;
  }
  case GM_N_RETURN:
    for (size_t i = 0; i < in->len; i++) {
      state *s = in->items[i];
      val v = eval(e, s, gm_kid(n, 0));
      if (!s->dead) {
        if (e->summary_mode)
          observe_exit(e, s, v);
        escape_val(s, v);
        if (!e->summary_mode)
          check_exit(e, s, n, GM_EXIT_RETURN);
      }
      state_free(s);
    }
    GM_VEC_FREE(*in);
    return;
  case GM_N_BREAK:
    list_move_all(e, &out->brk, in);
    return;
  case GM_N_CONTINUE:
    for (size_t i = 0; i < in->len; i++)
      in->items[i]->skipped_by = n;
    list_move_all(e, &out->cont, in);
    return;
  case GM_N_GOTO:
    for (size_t i = 0; i < in->len; i++) {
      struct pending_goto g = {n->name, in->items[i]};
      GM_PUSH(e->gotos, g);
    }
    GM_VEC_FREE(*in);
    return;
  case GM_N_LABEL: {
    size_t w = 0;
    for (size_t i = 0; i < e->gotos.len; i++) {
      if (n->name && strcmp(e->gotos.items[i].label, n->name) == 0)
        list_add(e, in, e->gotos.items[i].st);
      else
        e->gotos.items[w++] = e->gotos.items[i];
    }
    e->gotos.len = w;
    exec(e, in, gm_kid(n, 0), out);
    return;
  }
  case GM_N_THROW:
    for (size_t i = 0; i < in->len; i++) {
      (void)eval(e, in->items[i], gm_kid(n, 0));
      state_free(in->items[i]);
    }
    GM_VEC_FREE(*in);
    return;
  case GM_N_NOP:
    list_move_all(e, &out->next, in);
    return;
  default:
    for (size_t i = 0; i < in->len; i++) {
      state *s = in->items[i];
      (void)eval(e, s, n);
      list_add(e, &out->next, s);
    }
    GM_VEC_FREE(*in);
    return;
  }
}

/* ---- driving one function ---- */

/* Locals whose address reaches code we do not model (so their value may change behind our back).
 * An address handed to a table function (cudaMalloc(&p), cudaMemcpy(&x, ...)) does not count:
 * what those calls do with it is modelled. */
static void mark_addr_taken(engine *e, const gm_node *n) {
  if (!n)
    return;
  int known_call = n->kind == GM_N_CALL && (n->fn || n->is_launch || borrows(n));
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *k = n->kids[i];
    if (k && k->kind == GM_N_ADDR && gm_kid(k, 0) && k->kids[0]->kind == GM_N_VAR) {
      if (!known_call)
        e->addr_taken[k->kids[0]->var] = 1;
      continue;
    }
    if (k && n->kind == GM_N_LAMBDA && k->kind == GM_N_VAR)
      e->addr_taken[k->var] = 1;
    mark_addr_taken(e, k);
  }
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
static void find_retested(engine *e, const gm_node *body) {
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

static int retested(const engine *e, uint64_t key) {
  return bsearch(&key, e->retested.items, e->retested.len, sizeof(uint64_t), key_cmp) != NULL;
}

static void run_function(engine *e, const gm_func *fn) {
  e->fn = fn;
  e->steps = 0;
  e->truncated = 0;
  find_retested(e, fn->body);
  e->addr_taken = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), 1);
  e->array_init = gm_xcalloc((size_t)(fn->nvars ? fn->nvars : 1), sizeof(gm_node *));
  mark_addr_taken(e, fn->body);
  state *s = state_new();
  for (int v = 0; v < fn->nvars; v++) {
    const gm_var *var = &fn->vars[v];
    if (var->param_index < 0 || !var->is_handle)
      continue;
    obj o = {0};
    o.param = var->param_index;
    o.deref_param = -1;
    o.state = OBJ_LIVE; /* the caller owns it: no site, so never reported as a leak */
    o.owner = var->name;
    int id = obj_new(s, o);
    slot_set_raw(s, v, mk(V_OBJ, id));
    if (var->is_pointer_to_pointer && e->summary_mode) {
      /* `T **pp`: what *pp holds is the caller's too; a helper may free it through pp */
      obj pointee = {0};
      pointee.param = -1;
      pointee.deref_param = var->param_index;
      pointee.state = OBJ_LIVE;
      slot_set_raw(s, path_slot(e, gm_xasprintf("*v%d", v)), mk(V_OBJ, obj_new(s, pointee)));
    }
  }
  state_list in = {0};
  GM_PUSH(in, s);
  flow_out out = {0};
  exec(e, &in, fn->body, &out);
  gm_node end = {0};
  end.kind = GM_N_NOP;
  end.loc = fn->end_loc;
  gm_node *end_node = gm_arena_alloc(e->tu->arena, sizeof end);
  *end_node = end;
  for (size_t i = 0; i < out.next.len; i++) {
    state *st = out.next.items[i];
    if (e->summary_mode)
      observe_exit(e, st, mk(V_UNKNOWN, 0));
    else
      check_exit(e, st, end_node, GM_EXIT_END);
  }
  list_free(&out.next);
  list_free(&out.brk);
  list_free(&out.cont);
  for (size_t i = 0; i < e->gotos.len; i++)
    state_free(e->gotos.items[i].st);
  e->gotos.len = 0;
  for (size_t i = 0; i < e->paths.len; i++)
    free(e->paths.items[i]);
  e->paths.len = 0;
  free(e->addr_taken);
  e->addr_taken = NULL;
  free(e->array_init);
  e->array_init = NULL;
}

static int summarise(engine *e, summary *sum) {
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
  run_function(e, fn);
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

/* Whether anything under n allocates or frees: a table call, or a same-file function whose
 * summary does. A function with neither can yield no fact. */
static int allocates_or_frees(engine *e, const gm_node *n) {
  if (!n)
    return 0;
  if (n->kind == GM_N_CALL) {
    const gm_fn *row = n->fn;
    if (row && (row->kind == GM_FN_ALLOC || row->kind == GM_FN_REALLOC || row->kind == GM_FN_FREE))
      return 1;
    const summary *sum = row ? NULL : summary_for(e, n->callee_usr);
    if (sum && sum->returns_fresh)
      return 1;
    for (int i = 0; sum && i < sum->nparams; i++)
      if (sum->params[i].effect == P_FREES || sum->params[i].effect == P_OUT_ALLOC ||
          sum->params[i].effect == P_FREES_DEREF)
        return 1;
  }
  for (int i = 0; i < n->nkids; i++)
    if (allocates_or_frees(e, n->kids[i]))
      return 1;
  return 0;
}

void gm_flow_analyze(const gm_tu *tu, gm_func_facts **out, int *nout) {
  engine e = {0};
  e.tu = tu;
  e.nsummaries = tu->nfuncs;
  e.summaries = gm_xcalloc((size_t)(tu->nfuncs ? tu->nfuncs : 1), sizeof(summary));
  for (int i = 0; i < tu->nfuncs; i++) {
    e.summaries[i].fn = tu->funcs[i];
    e.summaries[i].usr_hash = gm_hash64(tu->funcs[i]->usr, strlen(tu->funcs[i]->usr), 0);
  }
  for (int round = 0; round < SUMMARY_ROUNDS; round++) {
    int changed = 0;
    for (int i = 0; i < tu->nfuncs; i++)
      changed |= summarise(&e, &e.summaries[i]);
    if (!changed)
      break;
  }
  gm_func_facts *results =
      gm_arena_alloc(tu->arena, sizeof(gm_func_facts) * (size_t)(tu->nfuncs ? tu->nfuncs : 1));
  int n = 0;
  for (int i = 0; i < tu->nfuncs; i++) {
    const gm_func *fn = tu->funcs[i];
    if (!fn->in_main_file)
      continue;
    e.facts.len = 0;
    e.reported.len = 0;
    if (allocates_or_frees(&e, fn->body)) /* else there is nothing to find (kernels, math) */
      run_function(&e, fn);
    else
      e.truncated = 0;
    gm_func_facts *r = &results[n++];
    r->fn = fn;
    r->truncated = e.truncated;
    r->nfacts = (int)e.facts.len;
    r->facts = gm_arena_alloc(tu->arena, sizeof(gm_fact) * (e.facts.len ? e.facts.len : 1));
    if (e.facts.len)
      memcpy(r->facts, e.facts.items, sizeof(gm_fact) * e.facts.len);
  }
  GM_VEC_FREE(e.facts);
  GM_VEC_FREE(e.reported);
  GM_VEC_FREE(e.paths);
  GM_VEC_FREE(e.gotos);
  GM_VEC_FREE(e.switch_entries);
  GM_VEC_FREE(e.retested);
  free(e.summaries);
  *out = results;
  *nout = n;
}
