#include "model/model.h"

#include "model/loop_counter.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
    [GM_N_SEQ] = "seq",
    [GM_N_IF] = "if",
    [GM_N_LOOP] = "loop",
    [GM_N_SWITCH] = "switch",
    [GM_N_CASE] = "case",
    [GM_N_RETURN] = "return",
    [GM_N_BREAK] = "break",
    [GM_N_CONTINUE] = "continue",
    [GM_N_GOTO] = "goto",
    [GM_N_LABEL] = "label",
    [GM_N_THROW] = "throw",
    [GM_N_DECL] = "decl",
    [GM_N_TRY] = "try",
    [GM_N_NOP] = "nop",
    [GM_N_CALL] = "call",
    [GM_N_ASSIGN] = "assign",
    [GM_N_VAR] = "var",
    [GM_N_FIELD] = "field",
    [GM_N_DEREF] = "deref",
    [GM_N_INDEX] = "index",
    [GM_N_ADDR] = "addr",
    [GM_N_NULL] = "null",
    [GM_N_CONST] = "const",
    [GM_N_ARITH] = "arith",
    [GM_N_INCDEC] = "incdec",
    [GM_N_LAND] = "and",
    [GM_N_LOR] = "or",
    [GM_N_NOT] = "not",
    [GM_N_CMP] = "cmp",
    [GM_N_COND] = "cond",
    [GM_N_COMMA] = "comma",
    [GM_N_LAMBDA] = "lambda",
    [GM_N_AGGREGATE] = "aggregate",
    [GM_N_OTHER] = "other",
};

const char *gm_node_kind_name(enum gm_node_kind k) {
  return kind_names[k];
}

static void dump(const gm_func *fn, const gm_node *n, int depth, FILE *out) {
  if (!n) {
    fprintf(out, "%*s-\n", depth * 2, "");
    return;
  }
  fprintf(out, "%*s%s", depth * 2, "", kind_names[n->kind]);
  if (n->name)
    fprintf(out, " '%s'", n->name);
  if (n->var >= 0 && n->var < fn->nvars)
    fprintf(out, " var=%s", fn->vars[n->var].name);
  if (n->op)
    fprintf(out, " op=%d", n->op);
  if (n->fn)
    fprintf(out, " [%s]", n->fn->family ? n->fn->family->name : "table");
  if (n->has_value)
    fprintf(out, " =%lld", n->value);
  if (n->is_launch)
    fprintf(out, " launch");
  if (n->noreturn)
    fprintf(out, " noreturn");
  if (n->kind == GM_N_CALL && n->in_system)
    fprintf(out, " system");
  if (n->kind == GM_N_CALL && n->is_method)
    fprintf(out, " method");
  if (n->implicit_dtor && n->object && n->object->var >= 0 && n->object->var < fn->nvars)
    fprintf(out, " destroys=%s", fn->vars[n->object->var].name);
  if (n->copy_dtor)
    fprintf(out, " by-value-copy");
  fprintf(out, " @%u:%u\n", n->loc.line, n->loc.col);
  for (int i = 0; i < n->nkids; i++)
    dump(fn, n->kids[i], depth + 1, out);
}

void gm_model_dump(const gm_func *fn, FILE *out) {
  fprintf(out, "function %s%s @%s:%u\n", fn->name, fn->is_kernel ? " (kernel)" : "",
          fn->loc.file ? fn->loc.file : "?", fn->loc.line);
  static const char *const var_kinds[] = {"local", "param", "global", "ref"};
  for (int i = 0; i < fn->nvars; i++)
    fprintf(out, "  var %s: %s%s\n", fn->vars[i].name, var_kinds[fn->vars[i].kind],
            fn->vars[i].is_pointer ? " pointer" : "");
  dump(fn, fn->body, 1, out);
}

/* ---- derived facts ---- */

static void set_parents(gm_node *n) {
  for (int i = 0; i < n->nkids; i++)
    if (n->kids[i]) {
      n->kids[i]->parent = n;
      set_parents(n->kids[i]);
    }
}

static void mark_modified(const gm_node *n, unsigned char *mod, int nvars) {
  if (!n)
    return;
  const gm_node *target = NULL;
  if (n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC)
    target = n->kids[0];
  else if (n->kind == GM_N_ADDR)
    target = n->kids[0]; /* its address may be written through */
  if (n->kind == GM_N_DECL && n->var >= 0 && n->var < nvars)
    mod[n->var] = 1;
  if (target) {
    int v = gm_root_var(target);
    /* p[i] = x changes p's pointee, not p; only plain variables and member paths count */
    if (v >= 0 && v < nvars &&
        (target->kind == GM_N_VAR || target->kind == GM_N_FIELD || n->kind == GM_N_ADDR))
      mod[v] = 1;
  }
  for (int i = 0; i < n->nkids; i++)
    mark_modified(n->kids[i], mod, nvars);
}

/* Whether every path through n ends in break, return, goto or a noreturn call. */
static int always_leaves(const gm_node *n) {
  if (!n)
    return 0;
  switch (n->kind) {
  case GM_N_BREAK:
  case GM_N_RETURN:
  case GM_N_GOTO:
  case GM_N_THROW:
    return 1;
  case GM_N_CALL:
    return n->noreturn;
  case GM_N_SEQ:
    for (int i = 0; i < n->nkids; i++) {
      if (n->kids[i] && n->kids[i]->kind == GM_N_CONTINUE)
        return 0;
      if (always_leaves(n->kids[i]))
        return 1;
    }
    return 0;
  case GM_N_IF:
    return always_leaves(n->kids[1]) && always_leaves(n->kids[2]);
  default:
    return 0;
  }
}

/* Locals whose declaration sets them to a constant: `fixed` when nothing writes or lends them
 * out again (`int numRuns = 1;`: that value everywhere), else how many times code writes them
 * (an attempts counter `unsigned tries = 0;` stepped only by `++tries < K`). */
typedef struct fixed_locals {
  unsigned char *declared_constant;
  long long *value;
  int *writes;
} fixed_locals;

static void find_fixed_locals(const gm_node *n, const gm_func *fn, fixed_locals *fx) {
  if (!n)
    return;
  if (n->kind == GM_N_DECL && n->var >= 0 && n->var < fn->nvars) {
    const gm_node *init = gm_kid(n, 0);
    if (fn->vars[n->var].kind == GM_VAR_LOCAL && !fn->vars[n->var].is_array && init &&
        (init->has_value || init->kind == GM_N_NULL) && !fx->declared_constant[n->var]) {
      fx->declared_constant[n->var] = 1;
      fx->value[n->var] = init->has_value ? init->value : 0;
    } else {
      fx->writes[n->var] += 2; /* declared again (a loop body), or from a value we do not know */
    }
  }
  if (n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) {
    int v = gm_root_var(n->kids[0]);
    if (v >= 0 && v < fn->nvars) /* lent out by address: written who knows how often */
      fx->writes[v] += n->kind == GM_N_ADDR ? 2 : 1;
  }
  for (int i = 0; i < n->nkids; i++)
    find_fixed_locals(n->kids[i], fn, fx);
}

static int is_fixed(const fixed_locals *fx, int var) {
  return fx->declared_constant[var] && !fx->writes[var];
}

/* Whether e's value is known: a constant, or a fixed local. */
static int known_value(const gm_node *e, const fixed_locals *fx, long long *out) {
  if (e && (e->has_value || e->kind == GM_N_NULL)) {
    *out = e->has_value ? e->value : 0;
    return 1;
  }
  if (e && e->kind == GM_N_VAR && e->var >= 0 && is_fixed(fx, e->var)) {
    *out = fx->value[e->var];
    return 1;
  }
  return 0;
}

static int loop_runs_once(const gm_node *loop, const fixed_locals *fx) {
  const gm_node *cond = loop->kids[1];
  if (loop->op == GM_LOOP_DO && cond && (cond->kind == GM_N_NULL))
    return 1; /* do { ... } while (0) */
  if (always_leaves(loop->kids[3]))
    return 1;
  /* for (int i = A; i < B; ...) with B - A <= 1 */
  const gm_node *init = loop->kids[0];
  if (loop->op == GM_LOOP_FOR && init && cond && cond->kind == GM_N_CMP && cond->op == '<') {
    const gm_node *start = NULL;
    int var = -1;
    if (init->kind == GM_N_SEQ && init->nkids == 1 && init->kids[0]->kind == GM_N_DECL) {
      var = init->kids[0]->var;
      start = gm_kid(init->kids[0], 0);
    } else if (init->kind == GM_N_DECL) {
      var = init->var;
      start = gm_kid(init, 0);
    } else if (init->kind == GM_N_ASSIGN && init->kids[0]->kind == GM_N_VAR) {
      var = init->kids[0]->var;
      start = init->kids[1];
    }
    const gm_node *lhs = cond->kids[0], *rhs = cond->kids[1];
    long long a, b;
    if (known_value(start, fx, &a) && lhs->kind == GM_N_VAR && lhs->var == var &&
        known_value(rhs, fx, &b) && b - a <= 1)
      return 1;
  }
  return 0;
}

/* The iterations of a counted loop whose start and bound are known when compiled, or -1. Only
 * a walk over distinct items counts (the body reads the counter: a field, a data type); a loop
 * that repeats the same work (`for (i = 0; i < TEST; i++) run();`) is repetitions, not setup. */
static long long known_trips(const gm_node *loop, const fixed_locals *fx) {
  gm_counter c;
  long long start, bound;
  if (!gm_loop_counter(loop, &c) || !c.unit || !c.bound || !c.cmp ||
      !gm_mentions_var(gm_kid(loop, 3), c.var) || !known_value(c.start, fx, &start) ||
      !known_value(c.bound, fx, &bound))
    return -1;
  long long gap = c.dir > 0 ? bound - start : start - bound;
  int to_bound = c.dir > 0 ? c.cmp[0] == '<' : c.cmp[0] == '>';
  if (strcmp(c.cmp, "!=") == 0)
    return gap >= 0 ? gap : -1;
  if (!to_bound)
    return -1; /* counts away from its bound */
  long long trips = gap + (c.cmp[1] == '=' ? 1 : 0);
  return trips > 0 ? trips : 0;
}

/* `while (failed && ++attempts < K)`: a conjunct of the condition steps a counter that starts
 * at a constant and is written nowhere else, towards a known bound. The loop runs at most that
 * many times (or -1 when no conjunct bounds it). */
static long long attempts_bound(const gm_node *cond, const fixed_locals *fx) {
  cond = gm_strip(cond);
  if (!cond)
    return -1;
  if (cond->kind == GM_N_LAND) {
    long long a = attempts_bound(cond->kids[0], fx), b = attempts_bound(cond->kids[1], fx);
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
  }
  if (cond->kind != GM_N_CMP || !cond->name || cond->name[0] != '<')
    return -1;
  const gm_node *step = gm_strip(cond->kids[0]);
  long long bound;
  if (!step || step->kind != GM_N_INCDEC || step->op != '+' || step->kids[0]->kind != GM_N_VAR ||
      !known_value(cond->kids[1], fx, &bound))
    return -1;
  int var = step->kids[0]->var;
  if (var < 0 || !fx->declared_constant[var] || fx->writes[var] != 1)
    return -1;
  long long trips = bound - fx->value[var] + (cond->name[1] == '=' ? 1 : 0);
  return trips > 0 ? trips : 0;
}

static void finish_loops(gm_node *n, const gm_func *fn, const fixed_locals *fx, gm_arena *arena) {
  if (!n)
    return;
  if (n->kind == GM_N_LOOP) {
    n->modified = gm_arena_alloc(arena, (size_t)(fn->nvars ? fn->nvars : 1));
    mark_modified(n, n->modified, fn->nvars);
    n->runs_once = loop_runs_once(n, fx);
    long long trips = known_trips(n, fx);
    if (trips < 0)
      trips = attempts_bound(gm_kid(n, 1), fx);
    if (trips < 0 && gm_loop_flips_flag(n))
      trips = 2;
    n->few_trips = trips >= 0 && trips <= gm_threshold(fn->limits, GM_T_FEW_TRIPS);
    n->trips = trips < 0 ? -1 : trips > INT_MAX ? INT_MAX : (int)trips;
  }
  for (int i = 0; i < n->nkids; i++)
    finish_loops(n->kids[i], fn, fx, arena);
}

void gm_model_finish(gm_func *fn, gm_arena *arena) {
  if (!fn->body)
    return;
  fn->body->parent = NULL;
  set_parents(fn->body);
  size_t n = (size_t)(fn->nvars ? fn->nvars : 1);
  fixed_locals fx = {gm_xcalloc(n, 1), gm_xcalloc(n, sizeof(long long)),
                     gm_xcalloc(n, sizeof(int))};
  find_fixed_locals(fn->body, fn, &fx);
  finish_loops(fn->body, fn, &fx, arena);
  free(fx.declared_constant);
  free(fx.value);
  free(fx.writes);
}

int gm_loop_repeats(const gm_node *loop) {
  return !loop->runs_once && !loop->few_trips;
}

gm_node *gm_enclosing_loop(const gm_node *n) {
  for (gm_node *p = n ? n->parent : NULL; p; p = p->parent) {
    if (p->kind != GM_N_LOOP || !gm_loop_repeats(p))
      continue;
    /* a loop's init runs once: only its condition, increment and body repeat */
    const gm_node *child = n;
    while (child->parent != p)
      child = child->parent;
    if (child == p->kids[0])
      continue;
    return p;
  }
  return NULL;
}

const gm_node *gm_few_trips_loop(const gm_node *n) {
  for (const gm_node *p = n ? n->parent : NULL; p; p = p->parent) {
    if (p->kind != GM_N_LOOP || p->runs_once)
      continue;
    const gm_node *child = n;
    while (child->parent != p)
      child = child->parent;
    if (child != p->kids[0] && p->few_trips)
      return p;
  }
  return NULL;
}

const gm_node *gm_strip(const gm_node *e) {
  while (e && e->kind == GM_N_OTHER && e->nkids == 1)
    e = e->kids[0];
  return e;
}

int gm_mentions_var(const gm_node *e, int var) {
  if (!e)
    return 0;
  if (e->kind == GM_N_VAR && e->var == var)
    return 1;
  for (int i = 0; i < e->nkids; i++)
    if (gm_mentions_var(e->kids[i], var))
      return 1;
  return 0;
}

int gm_root_var(const gm_node *e) {
  while (e) {
    switch (e->kind) {
    case GM_N_VAR:
      return e->var;
    case GM_N_FIELD:
    case GM_N_DEREF:
    case GM_N_INDEX:
    case GM_N_ADDR:
    case GM_N_INCDEC:
      e = gm_kid(e, 0);
      break;
    case GM_N_ARITH:
      e = gm_kid(e, 0);
      break;
    default:
      return -1;
    }
  }
  return -1;
}

struct local_defs {
  int var;
  const gm_node *decl; /* its one declaration in the loop */
  int decls, others;   /* declarations; assignments, increments, address taken */
};

static void count_defs(const gm_node *n, struct local_defs *d) {
  if (!n)
    return;
  if (n->kind == GM_N_DECL && n->var == d->var) {
    d->decls++;
    d->decl = n;
  } else if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) &&
             gm_root_var(n->kids[0]) == d->var) {
    const gm_node *t = n->kids[0];
    if (t->kind == GM_N_VAR || t->kind == GM_N_FIELD || n->kind == GM_N_ADDR)
      d->others++; /* the same test as mark_modified's */
  } else if (n->kind == GM_N_LAMBDA) {
    d->others++; /* a capture by reference may write it */
  }
  for (int i = 0; i < n->nkids; i++)
    count_defs(n->kids[i], d);
}

static int invariant_at(const gm_func *fn, const gm_node *loop, const gm_node *e, int depth);

/* A local the loop modifies only by declaring it once, `size_t bytes = n * sizeof(float);` in
 * its body: it holds the same value on every iteration when its initialiser does. */
static int invariant_local(const gm_func *fn, const gm_node *loop, int var, int depth) {
  if (fn->vars[var].kind != GM_VAR_LOCAL || depth > 8)
    return 0;
  struct local_defs d = {var, NULL, 0, 0};
  count_defs(loop, &d);
  if (d.decls != 1 || d.others || !d.decl->nkids)
    return 0;
  const gm_node *body = loop->kids[3];
  if (loop->op == GM_LOOP_RANGE && body && body->kind == GM_N_SEQ && gm_kid(body, 0) == d.decl)
    return 0; /* `for (int n : sizes)`: the element, read through an iterator the model omits */
  return invariant_at(fn, loop, d.decl->kids[0], depth + 1);
}

static int invariant_at(const gm_func *fn, const gm_node *loop, const gm_node *e, int depth) {
  if (!e)
    return 1;
  switch (e->kind) {
  case GM_N_CALL:
  case GM_N_ASSIGN:
  case GM_N_INCDEC:
  case GM_N_LAMBDA:
    return 0;
  case GM_N_VAR:
    if (e->var < 0 || e->var >= fn->nvars)
      return 0;
    return !loop->modified[e->var] || invariant_local(fn, loop, e->var, depth);
  default:
    break;
  }
  for (int i = 0; i < e->nkids; i++)
    if (!invariant_at(fn, loop, e->kids[i], depth))
      return 0;
  return 1;
}

int gm_loop_invariant(const gm_func *fn, const gm_node *loop, const gm_node *e) {
  return invariant_at(fn, loop, e, 0);
}

void gm_walk(const gm_node *n, void (*visit)(const gm_node *, void *), void *ctx) {
  if (!n)
    return;
  visit(n, ctx);
  for (int i = 0; i < n->nkids; i++)
    gm_walk(n->kids[i], visit, ctx);
}

int gm_arith_apply(int op, long long x, long long y, long long *r) {
  switch (op) {
  case '+':
    return !__builtin_add_overflow(x, y, r);
  case '-':
    return !__builtin_sub_overflow(x, y, r);
  case '*':
    return !__builtin_mul_overflow(x, y, r);
  case '/':
  case '%':
    if (y == 0 || (x == LLONG_MIN && y == -1))
      return 0;
    *r = op == '/' ? x / y : x % y;
    return 1;
  case 'l':
  case 'r':
    if (x < 0 || y < 0 || y > 62 || (op == 'l' && x > (LLONG_MAX >> y)))
      return 0;
    *r = op == 'l' ? x << y : x >> y;
    return 1;
  case '&':
    *r = x & y;
    return 1;
  case '|':
    *r = x | y;
    return 1;
  case '^':
    *r = x ^ y;
    return 1;
  default:
    return 0;
  }
}

int gm_is_success_status(const gm_node *n) {
  return n && n->kind == GM_N_NULL && n->name &&
         (strstr(n->name, "Success") || strstr(n->name, "SUCCESS"));
}

int gm_may_set_runtime_status(const gm_node *call) {
  return call->is_launch || !call->in_system || call->sets_status;
}

int gm_call_borrows(const gm_node *call) {
  if (call->fn)
    return call->fn->kind == GM_FN_BORROW || call->fn->kind == GM_FN_LAST_ERROR ||
           call->fn->kind == GM_FN_FALLIBLE;
  return call->in_system && !call->is_method;
}

const gm_node *gm_arg(const gm_node *call, int i) {
  return call && i >= 0 && i < call->nkids ? call->kids[i] : NULL;
}

int gm_node_ptr_cmp(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const gm_node *const *)a,
            y = (uintptr_t) * (const gm_node *const *)b;
  return x < y ? -1 : x > y;
}
