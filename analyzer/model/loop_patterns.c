/* The loop queries of patterns.h (GM010, GM020, GM021, GM031): what an allocation, copy or
 * launch inside a loop does from one iteration to the next (its target and guard, strides,
 * regrowth, table slots, retries), and the lines a statement hoisted out of a loop occupies. */
#include "model/patterns.h"

#include "model/loop_counter.h"

#include <string.h>

const gm_node *gm_statement_in(const gm_node *n, const gm_node *seq) {
  for (; n && n->parent; n = n->parent)
    if (n->parent == seq)
      return n;
  return NULL;
}

int gm_whole_lines(const gm_source *src, const gm_node *s, unsigned *begin, unsigned *end) {
  if (!src->text || s->end_offset <= s->offset || s->end_offset > src->len)
    return 0;
  unsigned b = s->offset;
  while (b > 0 && src->text[b - 1] != '\n') {
    if (src->text[b - 1] != ' ' && src->text[b - 1] != '\t')
      return 0;
    b--;
  }
  unsigned e = s->end_offset;
  while (e < src->len && src->text[e] != '\n') {
    char ch = src->text[e];
    if (ch == '/' && e + 1 < src->len && src->text[e + 1] == '/') {
      while (e < src->len && src->text[e] != '\n')
        e++;
      break;
    }
    if (ch != ' ' && ch != '\t' && ch != ';' && ch != '\r')
      return 0;
    e++;
  }
  if (e < src->len)
    e++; /* the newline */
  *begin = b;
  *end = e;
  return 1;
}

char *gm_line_indent(const gm_source *src, unsigned offset) {
  unsigned b = offset;
  while (b > 0 && src->text[b - 1] != '\n')
    b--;
  unsigned e = b;
  while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
    e++;
  char *r = gm_xmalloc(e - b + 1);
  memcpy(r, src->text + b, e - b);
  r[e - b] = 0;
  return r;
}

int gm_alloc_target_var(const gm_node *call) {
  if (!call || !call->fn)
    return -1;
  if (call->fn->ptr_arg >= 0) {
    const gm_node *arg = gm_arg(call, call->fn->ptr_arg);
    if (arg && arg->kind == GM_N_ADDR)
      return gm_root_var(gm_kid(arg, 0));
    return -1;
  }
  /* returned pointer: the enclosing assignment or declaration, through casts */
  for (const gm_node *p = call->parent; p; p = p->parent) {
    if (p->kind == GM_N_ASSIGN && p->kids[0]->kind == GM_N_VAR)
      return p->kids[0]->var;
    if (p->kind == GM_N_DECL)
      return p->var;
    if (p->kind != GM_N_COMMA && p->kind != GM_N_OTHER)
      return -1;
  }
  return -1;
}

int gm_depends_on_loop(const gm_node *loop, const gm_node *e) {
  if (!e)
    return 0;
  if (e->kind == GM_N_VAR && e->var >= 0 && loop->modified[e->var])
    return 1;
  if (e->kind == GM_N_CALL && !e->fn)
    return 1; /* an unknown call may return something new each time */
  for (int i = 0; i < e->nkids; i++)
    if (gm_depends_on_loop(loop, e->kids[i]))
      return 1;
  return 0;
}

static int stride_kind_at(const gm_node *loop, const gm_node *e, int depth);

/* Whether e loads from memory or calls a function: its value may change whenever the program
 * writes memory, whatever the variables it names. */
static int reads_memory(const gm_node *e) {
  if (!e)
    return 0;
  if (e->kind == GM_N_INDEX || e->kind == GM_N_DEREF || e->kind == GM_N_CALL ||
      (e->kind == GM_N_FIELD && e->nkids))
    return 1;
  for (int i = 0; i < e->nkids; i++)
    if (reads_memory(e->kids[i]))
      return 1;
  return 0;
}

struct int_updates {
  const gm_node *loop;
  int var, depth;
  int steps, loads;
};

enum var_update { UPDATE_NONE, UPDATE_STEP, UPDATE_SET };

/* What node n does to variable var: `var++`/`var--` steps it; an assignment or a declaration
 * sets it (*rhs: the value, NULL for a declaration without one). */
static enum var_update update_of(const gm_node *n, int var, const gm_node **rhs) {
  *rhs = NULL;
  if (n->kind == GM_N_INCDEC && n->kids[0]->kind == GM_N_VAR && n->kids[0]->var == var)
    return UPDATE_STEP;
  if (n->kind == GM_N_DECL && n->var == var)
    *rhs = gm_kid(n, 0);
  else if (n->kind == GM_N_ASSIGN && n->kids[0]->kind == GM_N_VAR && n->kids[0]->var == var)
    *rhs = n->kids[1];
  else
    return UPDATE_NONE;
  return UPDATE_SET;
}

/* How the loop changes an integer variable: `i++`, `i += k`, `off = i * 4` step regularly;
 * `off = found - base` with `found` read back from memory or returned by a call does not (the
 * loop cannot know where that value points until it has it). */
static void classify_int_updates(const gm_node *n, void *arg) {
  struct int_updates *u = arg;
  const gm_node *rhs;
  enum var_update what = update_of(n, u->var, &rhs);
  if (what == UPDATE_STEP) {
    u->steps++;
    return;
  }
  if (what == UPDATE_NONE)
    return;
  if (!rhs)
    return; /* declared without a value: set elsewhere, or through its address */
  int k = stride_kind_at(u->loop, rhs, u->depth + 1);
  if (k < 0 || (k == 0 && reads_memory(rhs)))
    u->loads++;
  else
    u->steps++;
}

/* 1: an integer expression of +, -, *, shifts over variables the loop steps regularly; 0: the
 * same every iteration; -1: it reads memory or calls something while depending on the loop (a
 * table lookup or data-dependent index: not a regular stride), or reads a variable the loop
 * sets from memory. */
static int stride_kind_at(const gm_node *loop, const gm_node *e, int depth) {
  if (!e)
    return 0;
  switch (e->kind) {
  case GM_N_CONST:
  case GM_N_NULL:
    return 0;
  case GM_N_VAR: {
    if (e->var < 0 || !loop->modified[e->var])
      return 0;
    if (depth > 4)
      return 1;
    struct int_updates u = {loop, e->var, depth, 0, 0};
    for (int i = 1; i < 4; i++) /* the init runs once: it sets where the variable starts */
      gm_walk(gm_kid(loop, i), classify_int_updates, &u);
    return u.loads || !u.steps ? -1 : 1; /* no step seen: set through its address */
  }
  case GM_N_ARITH: {
    if (e->op != '+' && e->op != '-' && e->op != '*' && e->op != 'l')
      return gm_depends_on_loop(loop, e) ? -1 : 0;
    int a = stride_kind_at(loop, gm_kid(e, 0), depth),
        b = stride_kind_at(loop, gm_kid(e, 1), depth);
    return a < 0 || b < 0 ? -1 : a || b;
  }
  case GM_N_OTHER:
    if (e->nkids == 1)
      return stride_kind_at(loop, e->kids[0], depth);
    return gm_depends_on_loop(loop, e) ? -1 : 0;
  default:
    return gm_depends_on_loop(loop, e) ? -1 : 0;
  }
}

static int stride_kind(const gm_node *loop, const gm_node *e) {
  return stride_kind_at(loop, e, 0);
}

struct var_updates {
  const gm_node *loop;
  int var;
  int regular, other;
};

/* How the loop changes a pointer variable: `p++`, `p += k`, `p = base + i * k` step regularly;
 * `p = table[i]` does not. */
static void classify_updates(const gm_node *n, void *arg) {
  struct var_updates *u = arg;
  const gm_node *rhs;
  enum var_update what = update_of(n, u->var, &rhs);
  if (what == UPDATE_STEP) {
    u->regular++;
    return;
  }
  if (what == UPDATE_NONE)
    return;
  if (n->kind == GM_N_ASSIGN && n->op) {
    u->regular++; /* p += k */
    return;
  }
  if (rhs && rhs->kind == GM_N_ARITH && (rhs->op == '+' || rhs->op == '-') &&
      stride_kind(u->loop, rhs) >= 0)
    u->regular++; /* p = base + i * k */
  else
    u->other++;
}

int gm_address_stride(const gm_node *loop, const gm_node *e) {
  if (!e)
    return 0;
  switch (e->kind) {
  case GM_N_ADDR: {
    const gm_node *lv = gm_kid(e, 0);
    if (lv && lv->kind == GM_N_INDEX) {
      int base = gm_address_stride(loop, lv->kids[0]);
      int index = stride_kind(loop, lv->kids[1]);
      return base < 0 || index < 0 ? -1 : base || index;
    }
    return 0; /* &x: the same address every time */
  }
  case GM_N_VAR: {
    if (e->var < 0 || !loop->modified[e->var])
      return 0;
    struct var_updates u = {loop, e->var, 0, 0};
    for (int i = 1; i < 4; i++) /* the init runs once: it sets where the pointer starts */
      gm_walk(gm_kid(loop, i), classify_updates, &u);
    return u.other ? -1 : u.regular ? 1 : 0;
  }
  case GM_N_ARITH: {
    if (e->op != '+' && e->op != '-')
      return gm_depends_on_loop(loop, e) ? -1 : 0;
    int base = gm_address_stride(loop, gm_kid(e, 0));
    int offset = stride_kind(loop, gm_kid(e, 1));
    return base < 0 || offset < 0 ? -1 : base || offset; /* base + table[i]: a gather */
  }
  case GM_N_OTHER:
    if (e->nkids == 1)
      return gm_address_stride(loop, e->kids[0]);
    return gm_depends_on_loop(loop, e) ? -1 : 0;
  default:
    /* a pointer loaded from memory: a table of buffers when it depends on the loop */
    return gm_depends_on_loop(loop, e) ? -1 : 0;
  }
}

/* Whether two expressions name the same place: `p`, `s->buf`, `t[i].p`, `*pp`. */
int gm_same_place(const gm_node *a, const gm_node *b) {
  a = gm_strip(a);
  b = gm_strip(b);
  if (!a || !b || a->kind != b->kind || a->nkids != b->nkids)
    return 0;
  switch (a->kind) {
  case GM_N_VAR:
    return a->var >= 0 && a->var == b->var;
  case GM_N_FIELD:
    if (!a->name || !b->name || strcmp(a->name, b->name) != 0)
      return 0;
    if (!a->nkids)
      return 1; /* implicit this */
    break;
  case GM_N_CONST:
  case GM_N_NULL:
    return a->has_value && b->has_value && a->value == b->value;
  case GM_N_INDEX:
  case GM_N_DEREF:
  case GM_N_ADDR:
    break;
  default:
    return 0;
  }
  for (int i = 0; i < a->nkids; i++)
    if (!gm_same_place(a->kids[i], b->kids[i]))
      return 0;
  return 1;
}

/* Whether e names the place where allocation `call` stores its pointer (`nb` for
 * cudaMalloc(&nb, ..), `s->buf = malloc(..)`, `T *p = new T[n]`). */
static int is_alloc_target(const gm_node *call, const gm_node *e) {
  e = gm_strip(e);
  if (!e)
    return 0;
  if (call->fn->ptr_arg >= 0) {
    const gm_node *arg = gm_strip(gm_arg(call, call->fn->ptr_arg));
    return arg && arg->kind == GM_N_ADDR && gm_same_place(gm_kid(arg, 0), e);
  }
  for (const gm_node *p = call->parent; p; p = p->parent) {
    if (p->kind == GM_N_ASSIGN)
      return gm_same_place(p->kids[0], e);
    if (p->kind == GM_N_DECL)
      return e->kind == GM_N_VAR && e->var == p->var;
    if (p->kind != GM_N_COMMA && p->kind != GM_N_OTHER)
      return 0;
  }
  return 0;
}

/* The old buffer of a regrowth, found in the loop's body: a copy into the new allocation (at
 * its start or at an offset) from a buffer that a free in the same body releases, where that
 * buffer is the one the loop carries from one iteration to the next: it is assigned the new
 * allocation (`acc = grown`), or it held the allocation's place before the allocation
 * (`old = buf; cudaMalloc(&buf, ..)`), or the two are swapped. A copy from a buffer made and
 * freed within the iteration (a host staging buffer uploaded, then freed) is not regrowth. */
struct regrow_ctx {
  const gm_node *call, *body;
  const gm_node *copy, *free_call;
};

struct carry_ctx {
  const gm_node *call, *old;
  int found, swapped;
};

static void find_carry(const gm_node *n, void *arg) {
  struct carry_ctx *c = arg;
  if (n->kind == GM_N_ASSIGN && !n->op && gm_same_place(n->kids[0], c->old) &&
      is_alloc_target(c->call, n->kids[1]))
    c->found = 1; /* acc = grown; or old = buf; before cudaMalloc(&buf, ..) */
  else if (n->kind == GM_N_DECL && n->nkids && gm_strip(c->old)->kind == GM_N_VAR &&
           gm_strip(c->old)->var == n->var && is_alloc_target(c->call, n->kids[0]))
    c->found = 1; /* T *old = buf; */
  else if (n->kind == GM_N_CALL && n->name && n->nkids == 2 &&
           (strcmp(n->name, "swap") == 0 || strcmp(n->name, "std::swap") == 0)) {
    const gm_node *a = n->kids[0], *b = n->kids[1];
    if ((gm_same_place(a, c->old) && is_alloc_target(c->call, b)) ||
        (gm_same_place(b, c->old) && is_alloc_target(c->call, a)))
      c->found = c->swapped = 1;
  }
}

struct free_of_ctx {
  const gm_node *call, *old;
  int swapped;
  const gm_node *found;
};

static void find_free_of(const gm_node *n, void *arg) {
  struct free_of_ctx *f = arg;
  if (f->found || n->kind != GM_N_CALL || !n->fn || n->fn->kind != GM_FN_FREE)
    return;
  const gm_node *freed = gm_arg(n, n->fn->ptr_arg);
  if (gm_same_place(freed, f->old) || (f->swapped && is_alloc_target(f->call, freed)))
    f->found = n; /* after swap(acc, grown), freeing grown releases the old buffer */
}

static void find_regrow_copy(const gm_node *n, void *arg) {
  struct regrow_ctx *r = arg;
  if (r->copy || n->kind != GM_N_CALL || !n->fn || n->fn->kind != GM_FN_COPY)
    return;
  const gm_node *dst = gm_strip(gm_arg(n, n->fn->dst_arg));
  if (dst && dst->kind == GM_N_ARITH && dst->op == '+')
    dst = gm_kid(dst, 0); /* the old contents placed after a prefix */
  const gm_node *src = gm_strip(gm_arg(n, n->fn->src_arg));
  if (!dst || !src || !is_alloc_target(r->call, dst) || is_alloc_target(r->call, src))
    return;
  struct carry_ctx c = {r->call, src, 0, 0};
  gm_walk(r->body, find_carry, &c);
  if (!c.found)
    return;
  struct free_of_ctx f = {r->call, src, c.swapped, NULL};
  gm_walk(r->body, find_free_of, &f);
  if (!f.found)
    return;
  r->copy = n;
  r->free_call = f.found;
}

struct growth_ctx {
  int var;
  int grows, other;
};

static void classify_growth(const gm_node *n, void *arg) {
  struct growth_ctx *g = arg;
  if (n->kind == GM_N_INCDEC && n->kids[0]->kind == GM_N_VAR && n->kids[0]->var == g->var) {
    g->grows++;
    return;
  }
  if (n->kind != GM_N_ASSIGN || n->kids[0]->kind != GM_N_VAR || n->kids[0]->var != g->var)
    return;
  if (n->op && n->name &&
      (strcmp(n->name, "+=") == 0 || strcmp(n->name, "*=") == 0 || strcmp(n->name, "<<=") == 0))
    g->grows++;
  else if (!n->op && n->kids[1]->kind == GM_N_ARITH && n->kids[1]->op == '+' &&
           gm_mentions_var(n->kids[1], g->var))
    g->grows++; /* total = total + len */
  else
    g->other++;
}

/* Whether a size expression grows with the loop: it adds something to a variable the loop
 * changes, or reads a variable the loop only ever increases. */
static int size_grows(const gm_node *loop, const gm_node *size) {
  if (!size)
    return 0;
  if (size->kind == GM_N_ARITH && size->op == '+' && gm_depends_on_loop(loop, size))
    return 1;
  if (size->kind == GM_N_VAR && loop->modified[size->var]) {
    struct growth_ctx g = {size->var, 0, 0};
    gm_walk(loop, classify_growth, &g);
    return g.grows && !g.other;
  }
  for (int i = 0; i < size->nkids; i++)
    if (size_grows(loop, size->kids[i]))
      return 1;
  return 0;
}

struct assign_back {
  int from, to;
  int found;
};

static void find_assign_back(const gm_node *n, void *arg) {
  struct assign_back *a = arg;
  if (n->kind == GM_N_ASSIGN && !n->op && n->kids[0]->kind == GM_N_VAR &&
      n->kids[0]->var == a->to && gm_root_var(n->kids[1]) == a->from)
    a->found = 1;
}

static int regrows(const gm_func *fn, const gm_node *call, const gm_node *loop,
                   const gm_node **copy, const gm_node **free_call);

int gm_growing_concat(const gm_func *fn, const gm_node *call, const gm_node *loop,
                      const gm_node **copy, const gm_node **free_call, gm_exemption *why) {
  *copy = *free_call = NULL;
  *why = GM_EXEMPT_NONE;
  if (!call->fn)
    return 0;
  /* regrown now and then, or to a multiple of the size: linear copying in all; the rest of the
   * pattern is still checked, for --explain */
  gm_exemption exempt = gm_alloc_guarded(fn, call, loop);
  if (!exempt)
    exempt = gm_geometric_size(loop, call);
  if (!regrows(fn, call, loop, copy, free_call))
    return 0;
  *why = exempt;
  return !exempt;
}

/* gm_growing_concat without its exemptions. */
static int regrows(const gm_func *fn, const gm_node *call, const gm_node *loop,
                   const gm_node **copy, const gm_node **free_call) {
  const gm_fn *row = call->fn;
  const gm_node *size = row->size_arg >= 0 ? gm_arg(call, row->size_arg) : NULL;
  if (!size || !gm_depends_on_loop(loop, size) ||
      (!size_grows(loop, size) && !gm_grows_with_loop(fn, loop, size)))
    return 0; /* the same size every time, or shrinking: not a growing buffer */
  int target = gm_alloc_target_var(call);
  if (target < 0)
    return 0;
  if (row->kind == GM_FN_REALLOC) {
    int old = gm_root_var(gm_arg(call, row->old_arg));
    if (old == target)
      return 1;                              /* p = realloc(p, bigger) */
    struct assign_back a = {target, old, 0}; /* t = realloc(p, ..); ...; p = t; */
    gm_walk(loop->kids[3], find_assign_back, &a);
    return old >= 0 && a.found;
  }
  struct regrow_ctx r = {call, loop->kids[3], NULL, NULL};
  gm_walk(loop->kids[3], find_regrow_copy, &r);
  if (!r.copy)
    return 0;
  *copy = r.copy;
  *free_call = r.free_call;
  return 1;
}

static void find_launch(const gm_node *n, void *arg) {
  int *found = arg;
  if (n->kind == GM_N_CALL &&
      (n->is_launch || (n->fn && n->fn->kind == GM_FN_LAUNCH) || (!n->fn && n->callee_usr)))
    *found = 1;
}

int gm_loop_launches(const gm_node *loop) {
  int found = 0;
  gm_walk(loop, find_launch, &found);
  return found;
}

int gm_inside(const gm_node *n, const gm_node *ancestor) {
  for (; n; n = n->parent)
    if (n == ancestor)
      return 1;
  return 0;
}
