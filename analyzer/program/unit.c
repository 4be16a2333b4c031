/* Builds a file's unit summary (unit.h) from its function model. */
#include "program/unit.h"

#include "model/loop_counter.h"
#include "model/patterns.h"
#include "program/teardown.h"

#include <stdlib.h>
#include <string.h>

static const char *keep(gm_unit *u, const char *s) {
  return s ? gm_arena_strdup(u->arena, s) : NULL;
}

static gm_loc keep_loc(gm_unit *u, gm_loc loc) {
  loc.file = keep(u, loc.file);
  return loc;
}

static gm_unit_family keep_family(gm_unit *u, const gm_family *f) {
  gm_unit_family out = {0};
  if (!f)
    return out;
  out.name = keep(u, f->name);
  out.description = keep(u, f->description);
  out.free_fn = keep(u, f->free_fn);
  out.gpu = f->gpu;
  out.heap = f->heap;
  out.pinned = f->pinned;
  out.managed = f->managed;
  return out;
}

static int is_host(const gm_func *fn) {
  return !fn->is_kernel && !fn->is_device;
}

static int is_call_of(const gm_node *n, enum gm_fn_kind kind) {
  return n && n->kind == GM_N_CALL && n->fn && n->fn->kind == kind;
}

/* Whether `n` runs on every call of its function: no loop, lambda or exception handler around
 * it, and no branch of an if, ?:, switch, && or || (their conditions always run). */
static int runs_every_call(const gm_node *n, const gm_node *body) {
  for (const gm_node *kid = n, *up = n->parent; up && kid != body; kid = up, up = up->parent) {
    switch (up->kind) {
    case GM_N_LOOP:
      if (gm_loop_repeats(up)) /* not a check macro's do-while (0), nor a known handful */
        return 0;
      break;
    case GM_N_LAMBDA:
      return 0;
    case GM_N_IF:
    case GM_N_COND:
    case GM_N_SWITCH:
    case GM_N_LAND:
    case GM_N_LOR:
    case GM_N_TRY:
      if (up->kids[0] != kid)
        return 0;
      break;
    default:
      break;
    }
  }
  return 1;
}

/* Where an allocation call puts its pointer: the lvalue written (`p` for `cudaMalloc(&p, ..)`,
 * `*out` for `cudaMalloc(out, ..)`, `s->buf` for `s->buf = malloc(..)`), or NULL. *through_ptr:
 * the call writes through a pointer value rather than naming the lvalue's address. */
static const gm_node *alloc_target(const gm_node *call, int *through_ptr) {
  *through_ptr = 0;
  const gm_fn *fn = call->fn;
  if (fn->ptr_field)
    return NULL; /* a struct out-parameter (cudaMalloc3D's cudaPitchedPtr) */
  if (fn->ptr_arg >= 0) {
    const gm_node *a = gm_arg(call, fn->ptr_arg);
    if (a && a->kind == GM_N_ADDR)
      return gm_kid(a, 0);
    *through_ptr = 1;
    return a;
  }
  const gm_node *up = call->parent;
  if (up && up->kind == GM_N_ASSIGN && up->op == 0 && up->kids[1] == call)
    return up->kids[0];
  if (up && up->kind == GM_N_DECL)
    return up;
  return NULL;
}

static int target_var(const gm_node *t) {
  if (!t)
    return -1;
  if (t->kind == GM_N_DECL)
    return t->var;
  return gm_root_var(t);
}

/* The parameter an allocation is stored through, or -1: `*out`, `out->buf`, `out[i]`, a
 * reference parameter itself, or a pointer parameter written through (`cudaMalloc(out, ..)`). */
static int out_param_of(const gm_func *fn, const gm_node *t, int through_ptr) {
  int v = target_var(t);
  if (v < 0 || t->kind == GM_N_DECL)
    return -1;
  const gm_var *var = &fn->vars[v];
  if (var->param_index < 0)
    return -1;
  if (var->kind == GM_VAR_REF || through_ptr || t->kind != GM_N_VAR)
    return var->param_index;
  return -1; /* the by-value parameter itself: a local copy */
}

/* What the function body does with each of its variables, indexed by one walk so that each
 * allocation is a lookup rather than two walks (issue 30: thousands of allocations). */
enum { VAR_RETURNED = 1, VAR_FREED = 2 };

struct var_uses {
  const gm_func *fn;
  unsigned char *by_var; /* fn->nvars entries of VAR_* bits, or NULL until first needed */
};

static void mark_var(struct var_uses *uses, int var, unsigned char bit) {
  if (var >= 0 && var < uses->fn->nvars)
    uses->by_var[var] |= bit;
}

static void index_var_use(const gm_node *n, void *arg) {
  struct var_uses *uses = arg;
  const gm_node *v = n->kind == GM_N_RETURN ? gm_kid(n, 0) : NULL;
  if (v && v->kind == GM_N_VAR)
    mark_var(uses, v->var, VAR_RETURNED);
  if (is_call_of(n, GM_FN_FREE) || is_call_of(n, GM_FN_REALLOC))
    mark_var(uses,
             gm_root_var(gm_arg(n, n->fn->kind == GM_FN_FREE ? n->fn->ptr_arg : n->fn->old_arg)),
             VAR_FREED);
}

static int var_used(struct var_uses *uses, int var, unsigned char bit) {
  if (!uses->by_var) {
    uses->by_var = gm_xcalloc((size_t)uses->fn->nvars + 1, 1);
    gm_walk(uses->fn->body, index_var_use, uses);
  }
  return var >= 0 && var < uses->fn->nvars && (uses->by_var[var] & bit);
}

typedef GM_VEC(const char *) usr_vec;
typedef GM_VEC(const gm_node *) call_vec;

struct build_ctx {
  gm_unit *u;
  const gm_tu *tu;
  const gm_func *fn;
  gm_unit_func *out;     /* per-call allocations of fn */
  struct var_uses *uses; /* fn's returned and freed variables */
  /* u->defined sorted, so that each call's "is its body here?" is a binary search, not a scan
   * of every function (a file of thousands of lambdas) */
  const char **defined;
  size_t ndefined;
  usr_vec *called;    /* callees with no body here, as met, repeats included (the tu's strings) */
  call_vec *fn_edges; /* fn's calls that make an edge, as met, repeats included */
  gm_node_set own_frees; /* frees given fn's own block on every path */
};

static int str_cmp(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void add_per_call(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  if (!is_call_of(n, GM_FN_ALLOC) || !n->fn->family || !runs_every_call(n, b->fn->body))
    return;
  int through_ptr;
  const gm_node *t = alloc_target(n, &through_ptr);
  int v = target_var(t);
  gm_unit_alloc a = {keep_loc(b->u, n->loc),
                     keep(b->u, n->fn->name),
                     keep_family(b->u, n->fn->family),
                     out_param_of(b->fn, t, through_ptr),
                     0,
                     0,
                     0};
  const gm_node *up = n->parent;
  a.returned = up && up->kind == GM_N_RETURN;
  if (v >= 0 && b->fn->vars[v].kind == GM_VAR_LOCAL) {
    a.returned |= var_used(b->uses, v, VAR_RETURNED);
    a.freed = var_used(b->uses, v, VAR_FREED);
  } else if (v >= 0 && a.out_param >= 0) {
    a.freed = var_used(b->uses, v, VAR_FREED);
  } else if (v >= 0 && t->kind == GM_N_VAR && b->fn->vars[v].kind == GM_VAR_GLOBAL) {
    a.global = 1; /* g_buf itself, on every call: the previous block is overwritten */
  } else if (!a.returned) {
    return; /* kept in a member or a global's element: long-lived, not this summary's business */
  }
  GM_PUSH(b->out->per_call, a);
}

/* Whether n runs at most once per call of the function: in no loop (but a check macro's) and no
 * lambda. */
static int outside_loops(const gm_node *n, const gm_node *body) {
  for (const gm_node *up = n->parent; up && up != body; up = up->parent)
    if ((up->kind == GM_N_LOOP && gm_loop_repeats(up)) || up->kind == GM_N_LAMBDA)
      return 0;
  return 1;
}

static void add_every_call(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  if (n->kind != GM_N_CALL || n->fn || !n->callee_usr || n->is_launch || n->in_system ||
      n->is_kernel_callee || !outside_loops(n, b->fn->body) || gm_alloc_guarded(b->fn, n, NULL) ||
      strcmp(n->callee_usr, b->fn->usr) == 0)
    return; /* if (!init[t]) { setup(t); init[t] = true; } runs once */
  gm_unit_call c = {keep(b->u, n->callee_usr), keep(b->u, n->name), keep_loc(b->u, n->loc),
                    !runs_every_call(n, b->fn->body)};
  GM_PUSH(b->out->calls, c);
}

static int defined_here(const struct build_ctx *b, const char *usr) {
  return b->ndefined && bsearch(&usr, b->defined, b->ndefined, sizeof *b->defined, str_cmp);
}

/* Whether an lvalue names a different element on each iteration of `loop` (`bufs[i]`,
 * `plan[i].buf`). */
static int element_per_iteration(const gm_node *loop, const gm_node *lv) {
  for (const gm_node *e = lv; e; e = gm_kid(e, 0)) {
    if (e->kind == GM_N_INDEX && gm_depends_on_loop(loop, gm_kid(e, 1)))
      return 1;
    if (e->kind != GM_N_INDEX && e->kind != GM_N_FIELD && e->kind != GM_N_DEREF)
      return 0;
  }
  return 0;
}

struct element_pointer {
  int var;
  const gm_node *addr; /* the declaration's `&elem`, or NULL */
  int sets;            /* how many times the loop sets the variable */
};

static void find_element_pointer(const gm_node *n, void *arg) {
  struct element_pointer *ep = arg;
  if (n->kind == GM_N_DECL && n->var == ep->var) {
    const gm_node *init = gm_strip(gm_kid(n, 0));
    ep->addr = init && init->kind == GM_N_ADDR ? init : NULL;
    ep->sets++;
  } else if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC) &&
             gm_root_var(n->kids[0]) == ep->var) {
    ep->sets++;
  }
}

/* `Layer *l = &net.layers[j];` declared in the loop and left alone: the element's address. */
static const gm_node *element_address(const gm_node *loop, const gm_node *a) {
  a = gm_strip(a);
  if (a && a->kind == GM_N_ADDR)
    return a;
  if (!a || a->kind != GM_N_VAR || a->var < 0)
    return NULL;
  struct element_pointer ep = {a->var, NULL, 0};
  gm_walk(gm_kid(loop, 3), find_element_pointer, &ep);
  return ep.sets == 1 ? ep.addr : NULL;
}

static void add_loop_call(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  if (n->kind != GM_N_CALL || n->fn || !n->callee_usr || n->is_launch || n->in_system ||
      n->is_kernel_callee || defined_here(b, n->callee_usr))
    return;
  gm_exemption why;
  const gm_node *loop = gm_repeating_loop(b->fn, n, gm_enclosing_loop(n), &why);
  if (!loop)
    return; /* retried, on one iteration at most (`if (dev == 0) init()`), lazily or by capacity */
  gm_unit_loop_call c = {keep(b->u, b->fn->name), keep(b->u, n->callee_usr), keep(b->u, n->name),
                         keep_loc(b->u, n->loc),  keep_loc(b->u, loop->loc), 0};
  for (int k = 0; k < n->nkids && k < 31; k++) {
    const gm_node *a = n->kids[k];
    const gm_node *addr = element_address(loop, a);
    if (gm_address_stride(loop, a) == 1 || (addr && element_per_iteration(loop, gm_kid(addr, 0))))
      c.per_element |= 1u << k;
  }
  const gm_node *up = n->parent;
  if (up &&
      ((up->kind == GM_N_ASSIGN && up->kids[1] == n && element_per_iteration(loop, up->kids[0])) ||
       up->kind == GM_N_CALL))
    c.per_element |= GM_UNIT_RESULT_PER_ELEMENT; /* stored per element, or handed to a container */
  GM_PUSH(b->u->loop_calls, c);
}

/* Who a use is of: a struct or class member, or a global variable (unit.h). */
typedef struct member_id {
  const char *record, *record_name, *name;
  const char *raw; /* the record as the model names it (a global's USR without the file) */
  int global, internal, defines;
  int plain_pointer; /* known to point at memory, not at a table of pointers (a borrowing
                        callee may still free what such a table holds) */
} member_id;

static int member_of(struct build_ctx *b, const gm_node *n, member_id *id);

/* A member as teardown.h's coverage asks after it. */
struct same_member {
  struct build_ctx *b;
  const member_id *id;
};

static int is_same_member(const gm_node *n, int element, void *arg) {
  const struct same_member *sm = arg;
  n = gm_strip(n);
  int indexed = 0;
  while (n && n->kind == GM_N_INDEX) {
    n = gm_kid(n, 0);
    indexed = 1;
  }
  if (!n || indexed != element)
    return 0;
  const char *record = NULL;
  if (n->kind == GM_N_FIELD && n->record)
    record = n->record;
  else if (n->kind == GM_N_VAR && n->var >= 0 && sm->b->fn->vars[n->var].kind == GM_VAR_GLOBAL)
    record = sm->b->fn->vars[n->var].usr;
  return record && n->name && strcmp(record, sm->id->raw) == 0 &&
         strcmp(n->name, sm->id->name) == 0;
}

/* Whether every path that reaches free `call` gives it a block its function allocated: the
 * flow engine judged the free's family itself. */
static int frees_own_block(const struct build_ctx *b, const gm_node *call) {
  const gm_node_set *own = &b->own_frees;
  return own->len && bsearch(&call, own->items, own->len, sizeof *own->items, gm_node_ptr_cmp);
}

/* `element`: the use is of one of the member's elements (`s->bufs[i]`), which is named
 * "bufs[]": a table and the buffers in it are allocated and freed apart. `arg`: the argument
 * of `call` it is handed to, for a handoff; `addr`: its address is (a helper's out-parameter). */
static void add_member_use(struct build_ctx *b, enum gm_member_use_kind kind, const member_id *id,
                           gm_loc at, int element, const gm_node *call, int arg, int addr) {
  char *name = element ? gm_xasprintf("%s[]", id->name) : NULL;
  gm_unit_member_use use = {
      .kind = kind,
      .record = keep(b->u, id->record),
      .record_name = keep(b->u, id->record_name),
      .member = keep(b->u, name ? name : id->name),
      .global = id->global,
      .internal = id->internal,
      .defines = id->defines,
      .via_arg = -1,
      .loc = keep_loc(b->u, (call && kind != GM_MEMBER_HANDOFF ? call->loc : at)),
      .function = keep(b->u, b->fn->name),
      .function_usr = keep(b->u, b->fn->usr)};
  if (call && kind != GM_MEMBER_HANDOFF)
    use.api = keep(b->u, call->fn ? call->fn->name : call->name);
  if (kind == GM_MEMBER_ALLOC)
    use.family = keep_family(b->u, call->fn->family);
  if (kind == GM_MEMBER_FREE) {
    for (int i = 0; i < call->fn->nfrees && i < 8; i++)
      use.frees[use.nfrees++] = keep(b->u, call->fn->frees[i]->name);
    struct same_member sm = {b, id};
    use.cover = (int)gm_free_coverage(b->fn->body, call, element, is_same_member, &sm);
    use.own_block = !element && frees_own_block(b, call);
  }
  if (call && (kind == GM_MEMBER_ALLOC || addr))
    use.conditional = !gm_on_every_call(call, b->fn->body);
  if (kind == GM_MEMBER_HANDOFF && call && call->callee_usr && arg >= 0 &&
      (element || id->plain_pointer || addr)) {
    use.via_usr = keep(b->u, call->callee_usr);
    use.via_arg = arg;
    use.via_addr = addr;
    if (addr) {
      use.loc = keep_loc(b->u, call->loc);
      use.api = keep(b->u, call->name);
    }
  }
  GM_PUSH(b->u->members, use);
  free(name);
}

/* `cudaHostGetDevicePointer(&s->dev, s->host, 0)`: the member receives another address of the
 * block a member of the same object holds; any other source is not followed. */
static void add_alias_use(struct build_ctx *b, const member_id *id, gm_loc at, int element,
                          const gm_node *call) {
  const gm_node *src = gm_arg(call, call->fn->src_arg);
  member_id source;
  if (element || !src || src->kind != GM_N_FIELD || !member_of(b, src, &source) ||
      strcmp(source.record, id->record) != 0)
    return;
  size_t before = b->u->members.len;
  add_member_use(b, GM_MEMBER_ALIAS, id, at, 0, call, -1, 0);
  if (b->u->members.len > before)
    b->u->members.items[before].source = keep(b->u, source.name);
}

/* Calls that read or write through their pointer arguments and keep none: the model's
 * borrowers, and what the table says only uses, copies, places or launches with them. */
static int borrows_args(const gm_node *call) {
  if (call->is_launch || call->is_kernel_callee)
    return 1;
  if (call->fn && (call->fn->kind == GM_FN_USE || call->fn->kind == GM_FN_COPY ||
                   call->fn->kind == GM_FN_DEVICE_FILL || call->fn->kind == GM_FN_PREFETCH ||
                   call->fn->kind == GM_FN_LAUNCH || call->fn->kind == GM_FN_ALIAS))
    return 1;
  return gm_call_borrows(call);
}

static int arg_index(const gm_node *call, const gm_node *kid) {
  for (int i = 0; i < call->nkids; i++)
    if (call->kids[i] == kid)
      return i;
  return -1;
}

/* Who the node is a use of: a member access, or a global variable (a function's statics too);
 * 0 for anything else. A variable seen by this file alone is this file's own, whatever other
 * file has one of the same name: its identity carries the file. */
static int member_of(struct build_ctx *b, const gm_node *n, member_id *id) {
  if (n->kind == GM_N_FIELD && n->record) {
    *id = (member_id){.record = n->record,
                      .record_name = n->record_name ? n->record_name : n->record,
                      .name = n->name,
                      .raw = n->record};
    return 1;
  }
  if (n->kind != GM_N_VAR || n->var < 0)
    return 0;
  const gm_var *v = &b->fn->vars[n->var];
  if (v->kind != GM_VAR_GLOBAL || !v->usr || !*v->usr)
    return 0;
  *id = (member_id){.record = v->usr,
                    .raw = v->usr,
                    .name = v->name,
                    .global = 1,
                    .internal = v->internal,
                    .defines = v->defined_here,
                    .plain_pointer = v->is_pointer && !v->is_pointer_to_pointer};
  if (v->internal) {
    char *own = gm_xasprintf("%s|%s", b->u->path, v->usr);
    id->record = keep(b->u, own);
    free(own);
  }
  return 1;
}

/* The family of an allocation call, in the unit's families once. */
static void note_family(gm_unit *u, const gm_node *n) {
  if (!(is_call_of(n, GM_FN_ALLOC) || is_call_of(n, GM_FN_REALLOC)) || !n->fn->family)
    return;
  for (size_t i = 0; i < u->families.len; i++)
    if (strcmp(u->families.items[i].name, n->fn->family->name) == 0)
      return;
  GM_PUSH(u->families, keep_family(u, n->fn->family));
}

/* Classifies one member access (or use of a global) by what its parent does with it. */
static void add_member(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  note_family(b->u, n);
  member_id id;
  if (!member_of(b, n, &id))
    return;
  /* the value moves as the member itself, or as one of its elements */
  const gm_node *v = n;
  int element = 0;
  while (v->parent && v->parent->kind == GM_N_INDEX && v->parent->kids[0] == v) {
    v = v->parent;
    element = 1;
  }
  const gm_node *up = v->parent;
  int addr = 0;
  if (up && up->kind == GM_N_ADDR) {
    addr = 1;
    v = up;
    up = up->parent;
  }
  if (!up)
    return;
  switch (up->kind) {
  case GM_N_CALL: {
    int k = arg_index(up, v);
    if (up->fn && up->fn->kind == GM_FN_ALLOC && k == up->fn->ptr_arg && addr && up->fn->family &&
        !up->fn->ptr_field)
      add_member_use(b, GM_MEMBER_ALLOC, &id, n->loc, element, up, -1, 0);
    else if (up->fn && up->fn->kind == GM_FN_ALIAS && k == up->fn->ptr_arg && addr)
      add_alias_use(b, &id, n->loc, element, up);
    else if (up->fn && up->fn->kind == GM_FN_FREE && k == up->fn->ptr_arg && !addr)
      add_member_use(b, GM_MEMBER_FREE, &id, n->loc, element, up, -1, 0);
    else if (addr && !up->fn && up->callee_usr && !borrows_args(up))
      add_member_use(b, GM_MEMBER_HANDOFF, &id, n->loc, element, up, k, 1); /* a helper's */
    else if (!borrows_args(up))
      add_member_use(b, GM_MEMBER_HANDOFF, &id, n->loc, element, addr ? NULL : up, k, 0);
    break;
  }
  case GM_N_ASSIGN:
    if (up->kids[0] == v && !addr) {
      const gm_node *rhs = up->kids[1];
      if (is_call_of(rhs, GM_FN_ALLOC) && rhs->fn->ptr_arg == GM_ARG_RETURN && rhs->fn->family)
        add_member_use(b, GM_MEMBER_ALLOC, &id, n->loc, element, rhs, -1, 0);
      else if (rhs->kind != GM_N_NULL &&
               !(rhs->kind == GM_N_ASSIGN && rhs->kids[1]->kind == GM_N_NULL))
        add_member_use(b, GM_MEMBER_ASSIGN, &id, n->loc, element, NULL, -1, 0);
      break;
    }
    add_member_use(b, GM_MEMBER_HANDOFF, &id, n->loc, element, NULL, -1, 0);
    break;
  case GM_N_DECL:
  case GM_N_RETURN:
  case GM_N_AGGREGATE:
  case GM_N_LAMBDA:
  case GM_N_COND:
  case GM_N_OTHER:
  case GM_N_COMMA:
    add_member_use(b, GM_MEMBER_HANDOFF, &id, n->loc, element, NULL, -1, 0);
    break;
  default:
    break; /* read: compared, dereferenced, indexed, offset */
  }
}

static void add_called(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  if (is_call_of(n, GM_FN_ALLOC) || is_call_of(n, GM_FN_REALLOC))
    b->u->allocates = 1;
  for (int i = 0; n->kind == GM_N_CALL && i < n->nkids; i++) {
    const char *dtor = n->kids[i] ? n->kids[i]->copy_dtor : NULL; /* a by-value copy's */
    if (dtor && !defined_here(b, dtor))
      GM_PUSH(*b->called, dtor);
  }
  if (n->kind != GM_N_CALL || n->fn || !n->callee_usr || n->is_launch || n->in_system ||
      n->is_kernel_callee || defined_here(b, n->callee_usr))
    return;
  GM_PUSH(*b->called, n->callee_usr);
}

/* The unit's called list: each callee once, sorted. */
static void keep_called(gm_unit *u, usr_vec *called) {
  if (called->len)
    qsort(called->items, called->len, sizeof *called->items, str_cmp);
  for (size_t i = 0; i < called->len; i++)
    if (i == 0 || strcmp(called->items[i], called->items[i - 1]) != 0)
      GM_PUSH(u->called, keep(u, called->items[i]));
}

static void add_edge(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  if (n->kind != GM_N_CALL || n->fn || !n->callee_usr || n->is_launch || n->in_system ||
      n->is_kernel_callee || strcmp(n->callee_usr, b->fn->usr) == 0)
    return;
  GM_PUSH(*b->fn_edges, n);
}

/* One edge per callee of fn, at its first call: none for a callee already among the last edges
 * of the same caller USR (those of an earlier function of that USR). */
static void keep_edges(struct build_ctx *b) {
  gm_unit *u = b->u;
  size_t run = u->edges.len;
  while (run > 0 && strcmp(u->edges.items[run - 1].caller_usr, b->fn->usr) == 0)
    run--;
  size_t nrun = u->edges.len - run, n = nrun + b->fn_edges->len;
  const char **keys = gm_xmalloc(sizeof *keys * (n + 1));
  for (size_t i = 0; i < nrun; i++)
    keys[i] = u->edges.items[run + i].usr;
  for (size_t k = 0; k < b->fn_edges->len; k++)
    keys[nrun + k] = b->fn_edges->items[k]->callee_usr;
  char *repeated = gm_mark_repeats((char *const *)keys, n);
  for (size_t k = 0; k < b->fn_edges->len; k++) {
    const gm_node *call = b->fn_edges->items[k];
    if (repeated[nrun + k])
      continue;
    gm_unit_edge e = {keep(u, b->fn->usr), keep(u, b->fn->name), keep(u, call->callee_usr),
                      keep(u, call->name), keep_loc(u, call->loc)};
    GM_PUSH(u->edges, e);
  }
  free(repeated);
  free(keys);
  b->fn_edges->len = 0;
}

struct elsewhere {
  const struct build_ctx *b;
  int found;
};

static void find_call_elsewhere(const gm_node *n, void *arg) {
  struct elsewhere *e = arg;
  if (n->kind == GM_N_CALL && !n->fn && n->callee_usr && !n->is_launch && !n->in_system &&
      !n->is_kernel_callee && !defined_here(e->b, n->callee_usr))
    e->found = 1;
}

/* A destructor (its USR: the class's, then `@F@~`) is the class's teardown. */
static void add_teardown(struct build_ctx *b) {
  const char *usr = b->fn->usr, *at = usr ? strstr(usr, "@F@~") : NULL;
  if (!at || at == usr)
    return;
  struct elsewhere e = {b, 0};
  gm_walk(b->fn->body, find_call_elsewhere, &e);
  char *record = gm_xasprintf("%.*s", (int)(at - usr), usr);
  gm_unit_teardown t = {keep(b->u, record), keep(b->u, usr), keep(b->u, b->fn->name),
                        keep_loc(b->u, b->fn->loc), e.found};
  free(record);
  GM_PUSH(b->u->teardowns, t);
}

/* `Scratch s(n);` in a loop, or in a function other than main: an object the program makes
 * and destroys again and again (teardown.h). */
static void add_object(const gm_node *n, void *arg) {
  struct build_ctx *b = arg;
  size_t len;
  int in_loop;
  if (!gm_dying_object(b->fn, n, &len, &in_loop))
    return;
  char *record = gm_xasprintf("%.*s", (int)len, gm_kid(n, 0)->callee_usr);
  gm_unit_object o = {keep(b->u, record), keep(b->u, b->fn->name), keep_loc(b->u, n->loc), in_loop};
  free(record);
  GM_PUSH(b->u->objects, o);
}

static gm_call_summary keep_summary(gm_unit *u, const gm_call_summary *s) {
  gm_call_summary out = *s;
  out.usr = keep(u, s->usr);
  out.name = keep(u, s->name);
  out.returns_fresh = keep(u, s->returns_fresh);
  out.params = gm_arena_alloc(u->arena, sizeof *out.params * (size_t)(s->nparams + 1));
  for (int i = 0; i < s->nparams; i++) {
    gm_param_summary p = s->params[i];
    p.via = keep(u, p.via);
    p.family = keep(u, p.family);
    p.launch = keep_loc(u, p.launch);
    p.kernel_usr = keep(u, p.kernel_usr);
    p.kernel_name = keep(u, p.kernel_name);
    p.dense = keep_loc(u, p.dense);
    p.dense_where = keep(u, p.dense_where);
    for (int k = 0; k < p.nfrees; k++)
      p.frees[k] = keep(u, p.frees[k]);
    out.params[i] = p;
  }
  out.member_frees =
      gm_arena_alloc(u->arena, sizeof *out.member_frees * (size_t)(s->nmember_frees + 1));
  for (int i = 0; i < s->nmember_frees; i++) {
    gm_member_free_summary m = s->member_frees[i];
    m.member = keep(u, m.member);
    m.via = keep(u, m.via);
    m.at = keep_loc(u, m.at);
    for (int k = 0; k < m.nfrees; k++)
      m.frees[k] = keep(u, m.frees[k]);
    out.member_frees[i] = m;
  }
  out.members = gm_arena_alloc(u->arena, sizeof *out.members * (size_t)(s->nmembers + 1));
  for (int k = 0; k < s->nmembers; k++) {
    gm_member_effect m = s->members[k];
    m.member = keep(u, m.member);
    m.family = keep(u, m.family);
    out.members[k] = m;
  }
  return out;
}

/* Whether a header function's summary fills or frees through a parameter's target. */
static int helper_summary(const gm_call_summary *s) {
  for (int i = 0; i < s->nparams; i++)
    if (s->params[i].effect == GM_PARAM_OUT_ALLOC || s->params[i].effect == GM_PARAM_FREES_DEREF)
      return 1;
  return 0;
}

/* The main file's summaries, and its headers' helpers apart. */
static void keep_summaries(gm_unit *u, const gm_tu *tu, const gm_call_summary *summaries,
                           int nsummaries) {
  const char **main_usrs = gm_xmalloc(sizeof *main_usrs * (size_t)(tu->nfuncs + 1));
  size_t nmain = 0;
  for (int i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->in_main_file && tu->funcs[i]->usr)
      main_usrs[nmain++] = tu->funcs[i]->usr;
  if (nmain)
    qsort(main_usrs, nmain, sizeof *main_usrs, str_cmp);
  for (int i = 0; i < nsummaries; i++) {
    const gm_call_summary *s = &summaries[i];
    if (nmain && bsearch(&s->usr, main_usrs, nmain, sizeof *main_usrs, str_cmp))
      GM_PUSH(u->summaries, keep_summary(u, s));
    else if (helper_summary(s))
      GM_PUSH(u->helper_summaries, keep_summary(u, s));
  }
  free(main_usrs);
}

gm_unit *gm_unit_build(const gm_tu *tu, const char *path, const gm_call_summary *summaries,
                       int nsummaries, gm_node_set own_frees) {
  gm_unit *u = gm_xcalloc(1, sizeof *u);
  u->arena = gm_arena_new();
  u->path = keep(u, path);
  for (int i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->usr) {
      GM_PUSH(u->defined, keep(u, tu->funcs[i]->usr));
      if (tu->funcs[i]->links_once)
        GM_PUSH(u->symbols, u->defined.items[u->defined.len - 1]);
    }
  const char **defined = gm_xmalloc(sizeof *defined * (u->defined.len + 1));
  if (u->defined.len)
    memcpy(defined, u->defined.items, sizeof *defined * u->defined.len);
  qsort(defined, u->defined.len, sizeof *defined, str_cmp);
  usr_vec called = {0};
  call_vec fn_edges = {0};
  for (int i = 0; i < tu->nfuncs; i++) {
    const gm_func *fn = tu->funcs[i];
    if (!is_host(fn) || !fn->body)
      continue;
    struct var_uses uses = {fn, NULL};
    struct build_ctx b = {u,       tu,        fn,       NULL, &uses, defined, u->defined.len,
                          &called, &fn_edges, own_frees};
    gm_walk(fn->body, add_member, &b);
    add_teardown(&b);
    gm_walk(fn->body, add_object, &b);
    if (!fn->in_main_file || !fn->usr)
      continue;
    gm_unit_func f = {keep(u, fn->usr), keep(u, fn->name), keep_loc(u, fn->loc), {0}, {0}};
    b.out = &f;
    gm_walk(fn->body, add_per_call, &b);
    gm_walk(fn->body, add_every_call, &b);
    if (f.per_call.len || f.calls.len)
      GM_PUSH(u->funcs, f);
    gm_walk(fn->body, add_loop_call, &b);
    gm_walk(fn->body, add_called, &b);
    gm_walk(fn->body, add_edge, &b);
    keep_edges(&b);
    free(uses.by_var);
  }
  keep_called(u, &called);
  GM_VEC_FREE(called);
  GM_VEC_FREE(fn_edges);
  free(defined);
  keep_summaries(u, tu, summaries, nsummaries);
  return u;
}

void gm_unit_free(gm_unit *u) {
  if (!u)
    return;
  for (size_t i = 0; i < u->funcs.len; i++)
    GM_VEC_FREE(u->funcs.items[i].per_call), GM_VEC_FREE(u->funcs.items[i].calls);
  GM_VEC_FREE(u->funcs);
  GM_VEC_FREE(u->defined);
  GM_VEC_FREE(u->symbols);
  GM_VEC_FREE(u->called);
  GM_VEC_FREE(u->summaries);
  GM_VEC_FREE(u->helper_summaries);
  GM_VEC_FREE(u->loop_calls);
  GM_VEC_FREE(u->members);
  GM_VEC_FREE(u->edges);
  GM_VEC_FREE(u->families);
  GM_VEC_FREE(u->teardowns);
  GM_VEC_FREE(u->objects);
  gm_arena_free(u->arena);
  free(u);
}
