/* Why an allocation inside a loop does not run on every iteration of it (patterns.h): lazy
 * initialisation, capacity guards, one value of a counter, geometric growth (retry loops are in
 * loop_retry.c). Each
 * exemption is a fact about what the loop's paths do (which way a status test goes, whether the
 * tested pointer or capacity is set again on every iteration, how a size changes), decided in
 * one function that says which exemption held. */
#include "model/loop_counter.h"
#include "model/patterns.h"

#include <string.h>

const char *gm_exemption_id(gm_exemption why) {
  static const char *const ids[] = {
      "none",          "retry-condition", "retry-success-leaves", "counter-iteration",
      "counter-value", "lazy-init",       "geometric-capacity",   "high-water",
      "same-request",  "geometric-size"};
  return (size_t)why < sizeof ids / sizeof ids[0] ? ids[why] : "none";
}

const char *gm_exemption_reason(gm_exemption why) {
  switch (why) {
  case GM_EXEMPT_NONE:
    return "none";
  case GM_EXEMPT_RETRY_CONDITION:
    return "retry loop: the condition holds only after the allocation failed";
  case GM_EXEMPT_RETRY_SUCCESS_LEAVES:
    return "retry loop: a successful allocation leaves the loop";
  case GM_EXEMPT_COUNTER_ITERATION:
    return "one iteration of the loop's counter";
  case GM_EXEMPT_COUNTER_VALUE:
    return "one value of a counter that moves one way";
  case GM_EXEMPT_LAZY:
    return "lazy initialisation: what the test finds unset, the branch sets, and nothing unsets "
           "it on every iteration";
  case GM_EXEMPT_GEOMETRIC_CAPACITY:
    return "capacity guard whose branch grows the capacity geometrically";
  case GM_EXEMPT_HIGH_WATER:
    return "capacity guard raised to a request that does not grow with the loop";
  case GM_EXEMPT_SAME_REQUEST:
    return "cached size compared with one the loop does not change";
  case GM_EXEMPT_GEOMETRIC_SIZE:
    return "size multiplied on each iteration";
  }
  return "none";
}

/* ---- small facts about expressions and statements ---- */

/* A place an assignment can name: `p`, `s.buf`, `t[i]`, `*pp`. */
static int is_place(const gm_node *e) {
  e = gm_strip(e);
  return e &&
         (e->kind == GM_N_VAR || e->kind == GM_N_FIELD || e->kind == GM_N_INDEX ||
          e->kind == GM_N_DEREF) &&
         gm_root_var(e) >= 0;
}

int gm_skips_rest(const gm_node *n, int returns) {
  if (!n || n->kind == GM_N_LAMBDA)
    return 0;
  if (n->kind == GM_N_CONTINUE || (returns && n->kind == GM_N_RETURN))
    return 1;
  if (n->kind == GM_N_LOOP)
    return returns && gm_skips_rest(n->kids[3], 1) ? 1 : 0; /* its continues are its own */
  for (int i = 0; i < n->nkids; i++)
    if (gm_skips_rest(n->kids[i], returns))
      return 1;
  return 0;
}

enum { ANY_VALUE, NULL_VALUE };

/* Whether statement n sets place x on every path through it that goes on (to the end of the
 * loop's body, or of the function when `returns` is set): a statement of the block itself, or of
 * both arms of an if, and no continue (or return) before it. `arm` (the guarded branch) does
 * not count; with NULL_VALUE only null is counted (`p = nullptr;`). */
static int sets_on_every_path(const gm_node *n, const gm_node *x, int what, const gm_node *arm,
                              int returns) {
  if (!n || n == arm)
    return 0;
  switch (n->kind) {
  case GM_N_SEQ:
  case GM_N_COMMA:
    for (int i = 0; i < n->nkids; i++) {
      if (sets_on_every_path(n->kids[i], x, what, arm, returns))
        return 1;
      if (gm_skips_rest(n->kids[i], returns))
        return 0;
    }
    return 0;
  case GM_N_IF:
    return sets_on_every_path(n->kids[1], x, what, arm, returns) &&
           sets_on_every_path(n->kids[2], x, what, arm, returns);
  case GM_N_ASSIGN:
    return !n->op && gm_same_place(n->kids[0], x) &&
           (what == ANY_VALUE || gm_strip(n->kids[1])->kind == GM_N_NULL);
  default:
    return 0;
  }
}

struct decl_search {
  int var;
  int found;
};

/* A declaration that starts the variable with nothing it remembers: no initialiser, null, a
 * constant or a braced list of them (`Layer l = net.layers[k];` copies a table's element, which
 * does remember). */
static void find_fresh_decl(const gm_node *n, void *arg) {
  struct decl_search *d = arg;
  if (n->kind != GM_N_DECL || n->var != d->var)
    return;
  const gm_node *init = gm_strip(gm_kid(n, 0));
  int constant =
      !init || init->kind == GM_N_NULL || init->has_value || init->kind == GM_N_AGGREGATE;
  for (int i = 0; init && init->kind == GM_N_AGGREGATE && i < init->nkids; i++) {
    const gm_node *k = gm_strip(init->kids[i]);
    constant = constant && k && (k->kind == GM_N_NULL || k->has_value);
  }
  if (constant)
    d->found = 1;
}

/* Whether place x starts afresh on every round of the scope (an iteration of `loop`, or a call
 * of fn when loop is NULL), so a test of it cannot remember an earlier round: it is (a member of)
 * a local object declared in the scope, or every path through the scope sets it again outside
 * the guarded arm. */
static int reset_every_round(const gm_func *fn, const gm_node *loop, const gm_node *x, int what,
                             const gm_node *arm) {
  x = gm_strip(x);
  int var = gm_root_var(x);
  if (var < 0 || var >= fn->nvars)
    return 0;
  int fresh = fn->vars[var].kind == GM_VAR_LOCAL;
  for (const gm_node *e = x; fresh && e->kind != GM_N_VAR; e = gm_strip(gm_kid(e, 0)))
    fresh = e->kind == GM_N_FIELD && e->nkids && !fn->vars[var].is_pointer; /* s.p, not s->p */
  if (fresh) {
    struct decl_search d = {var, 0};
    if (loop)
      for (int i = 1; i < 4; i++) /* the init runs once */
        gm_walk(gm_kid(loop, i), find_fresh_decl, &d);
    else
      gm_walk(fn->body, find_fresh_decl, &d);
    if (d.found)
      return 1;
  }
  return loop ? sets_on_every_path(loop->kids[3], x, what, arm, 0)
              : sets_on_every_path(fn->body, x, what, arm, 1);
}

/* ---- guards: lazy initialisation, capacity, one value of a counter ---- */

/* The place that is zero (null, false) whenever cond evaluates to `holds`: `!p`, `p == NULL`,
 * `!init[t]` hold when it is; `p`, `p != nullptr` fail when it is. A comparison with a success
 * status tests a status, not a pointer or flag. */
static const gm_node *zero_when(const gm_node *cond, int holds) {
  cond = gm_strip(cond);
  if (!cond)
    return NULL;
  if (cond->kind == GM_N_NOT)
    return zero_when(cond->kids[0], !holds);
  if (cond->kind == GM_N_LAND && holds)
    return zero_when(cond->kids[0], 1) ? zero_when(cond->kids[0], 1) : zero_when(cond->kids[1], 1);
  if (cond->kind == GM_N_LOR && !holds)
    return zero_when(cond->kids[0], 0) ? zero_when(cond->kids[0], 0) : zero_when(cond->kids[1], 0);
  if (is_place(cond))
    return holds ? NULL : cond;
  if (cond->kind != GM_N_CMP || (cond->op != '=' && cond->op != '!'))
    return NULL;
  for (int i = 0; i < 2; i++) {
    const gm_node *z = gm_strip(cond->kids[i]), *x = gm_strip(cond->kids[1 - i]);
    if (z->kind == GM_N_NULL && !gm_is_success_status(z) && is_place(x))
      return (cond->op == '=') == holds ? x : NULL;
  }
  return NULL;
}

/* Whether a value stored into a tested place leaves it set: not null, and no status (a table
 * call that hands its pointer out returns a status, which is zero on success). */
static int sets_nonzero(const gm_node *v) {
  v = gm_strip(v);
  if (!v || v->kind == GM_N_NULL)
    return 0;
  if (v->kind == GM_N_CALL && v->fn && (v->fn->ptr_arg >= 0 || v->fn->kind == GM_FN_LAST_ERROR))
    return 0;
  return 1;
}

struct set_search {
  const gm_node *place;
  int found;
};

static void find_set(const gm_node *n, void *arg) {
  struct set_search *s = arg;
  if (n->kind == GM_N_ASSIGN && gm_same_place(n->kids[0], s->place) &&
      (n->op || sets_nonzero(n->kids[1])))
    s->found = 1; /* p = make(n); init[t] = true; */
  else if (n->kind == GM_N_INCDEC && gm_same_place(n->kids[0], s->place))
    s->found = 1;
  else if (n->kind == GM_N_CALL)
    for (int i = 0; i < n->nkids; i++) {
      const gm_node *a = gm_strip(n->kids[i]);
      if (a && a->kind == GM_N_ADDR && gm_same_place(gm_kid(a, 0), s->place))
        s->found = 1; /* cudaMalloc(&p, n), make(&p) */
    }
}

/* `if (!buf) cudaMalloc(&buf, n)`, `if (!init[t]) { setup(t); init[t] = true; }`: the test
 * finds a place unset, the arm sets it, and no round of the scope unsets it on every path (a
 * `p = nullptr;` in the loop's body, or a pointer declared in it, makes the test true again on
 * every iteration). */
static gm_exemption lazy_exemption(const gm_func *fn, const gm_node *loop, const gm_node *cond,
                                   int holds, const gm_node *arm) {
  const gm_node *x = zero_when(cond, holds);
  if (!x)
    return GM_EXEMPT_NONE;
  struct set_search s = {x, 0};
  gm_walk(arm, find_set, &s);
  if (!s.found || reset_every_round(fn, loop, x, NULL_VALUE, arm))
    return GM_EXEMPT_NONE;
  return GM_EXEMPT_LAZY;
}

/* Whether two expressions compute the same value: the same places, constants and operators. */
static int same_expr(const gm_node *a, const gm_node *b) {
  a = gm_strip(a);
  b = gm_strip(b);
  if (!a || !b)
    return 0;
  if (a->has_value && b->has_value)
    return a->value == b->value;
  if (a->kind == GM_N_ARITH && b->kind == GM_N_ARITH && a->op && a->op == b->op)
    return same_expr(a->kids[0], b->kids[0]) && same_expr(a->kids[1], b->kids[1]);
  return gm_same_place(a, b);
}

/* e as a multiple of ref: e == *ratio * ref, plus constants (which do not change how it
 * grows), for e built from ref with +, constant factors, divisions and shifts. 0: not such. */
static int ratio_to(const gm_node *e, const gm_node *ref, double *ratio) {
  e = gm_strip(e);
  if (!e)
    return 0;
  if (same_expr(e, ref)) {
    *ratio = 1;
    return 1;
  }
  if (e->kind == GM_N_CALL && e->name && e->nkids == 2 &&
      (strcmp(e->name, "max") == 0 || strcmp(e->name, "std::max") == 0 ||
       strcmp(e->name, "fmax") == 0)) {
    double a, b; /* max(2 * cap, need) is at least its larger argument */
    int ha = ratio_to(e->kids[0], ref, &a), hb = ratio_to(e->kids[1], ref, &b);
    *ratio = ha && hb ? (a > b ? a : b) : ha ? a : b;
    return ha || hb;
  }
  if (e->kind == GM_N_COND && e->nkids == 3) {
    double a, b; /* cap ? 2 * cap : 1024: the arm that scales */
    int ha = ratio_to(e->kids[1], ref, &a), hb = ratio_to(e->kids[2], ref, &b);
    ha = ha && !gm_strip(e->kids[1])->has_value;
    hb = hb && !gm_strip(e->kids[2])->has_value;
    *ratio = ha && hb ? (a < b ? a : b) : ha ? a : b;
    return ha || hb;
  }
  if (e->kind != GM_N_ARITH || e->nkids != 2)
    return 0;
  const gm_node *l = gm_strip(e->kids[0]), *r = gm_strip(e->kids[1]);
  double x, y;
  switch (e->op) {
  case '*':
    if (r->has_value && ratio_to(l, ref, &x))
      return *ratio = x * (double)r->value, 1;
    if (l->has_value && ratio_to(r, ref, &x))
      return *ratio = x * (double)l->value, 1;
    return 0;
  case '/':
    if (r->has_value && r->value > 0 && ratio_to(l, ref, &x))
      return *ratio = x / (double)r->value, 1;
    return 0;
  case 'l':
  case 'r':
    if (r->has_value && r->value >= 0 && r->value < 62 && ratio_to(l, ref, &x))
      return *ratio = e->op == 'l' ? x * (double)(1LL << r->value) : x / (double)(1LL << r->value),
             1;
    return 0;
  case '+':
    if (ratio_to(l, ref, &x) && ratio_to(r, ref, &y))
      return *ratio = x + y, 1;
    if (r->has_value && ratio_to(l, ref, &x))
      return *ratio = x, 1;
    if (l->has_value && ratio_to(r, ref, &x))
      return *ratio = x, 1;
    return 0;
  default:
    return 0;
  }
}

/* ref without its constant factors (`need * sizeof(float)` is `need`, 4 times): a capacity kept
 * in bytes against a request in bytes scales by the same factor. */
static const gm_node *unscaled(const gm_node *ref, double *factor) {
  *factor = 1;
  for (ref = gm_strip(ref); ref && ref->kind == GM_N_ARITH && ref->op == '*';) {
    const gm_node *l = gm_strip(ref->kids[0]), *r = gm_strip(ref->kids[1]);
    if (r->has_value && r->value > 0 && !l->has_value)
      *factor *= (double)r->value, ref = l;
    else if (l->has_value && l->value > 0 && !r->has_value)
      *factor *= (double)l->value, ref = r;
    else
      break;
  }
  return ref;
}

/* Whether value v is geometrically more than ref: a multiple above 1 of it (`2 * need`, `need +
 * need / 2`, `cap ? 2 * cap : 1024`, `std::max(2 * cap, need)`). */
static int more_than(const gm_node *v, const gm_node *ref) {
  double factor, ratio;
  const gm_node *base = unscaled(ref, &factor);
  return ratio_to(v, base, &ratio) && ratio > factor * 1.001;
}

struct capacity_writes {
  const gm_node *cap, *need;
  const gm_node *tested_cap; /* the capacity the size test compares (cap: a local on the way) */
  const gm_node *arm;
  int depth;
  int geometric;
};

static int geometric_value(const gm_node *v, const struct capacity_writes *w);

/* A write that multiplies a place in place: `c *= 2`, `c <<= 1`, `c += c / 2`. */
static int multiplies_in_place(const gm_node *n, const gm_node *place) {
  if (n->kind != GM_N_ASSIGN || !n->op || !n->name || !gm_same_place(n->kids[0], place))
    return 0;
  const gm_node *by = gm_strip(n->kids[1]);
  if (strcmp(n->name, "*=") == 0)
    return by->has_value && by->value >= 2;
  if (strcmp(n->name, "<<=") == 0)
    return by->has_value && by->value >= 1;
  double r;
  return strcmp(n->name, "+=") == 0 && ratio_to(by, n->kids[0], &r) && r > 0;
}

static void find_geometric_write(const gm_node *n, void *arg) {
  struct capacity_writes *w = arg;
  if (multiplies_in_place(n, w->cap))
    w->geometric = 1;
  else if (n->kind == GM_N_ASSIGN && !n->op && gm_same_place(n->kids[0], w->cap) &&
           geometric_value(n->kids[1], w))
    w->geometric = 1;
  else if (n->kind == GM_N_DECL && gm_strip(w->cap)->kind == GM_N_VAR &&
           gm_strip(w->cap)->var == n->var && n->nkids && geometric_value(n->kids[0], w))
    w->geometric = 1;
}

/* Whether v, stored into the capacity, grows it geometrically: a multiple above 1 of the
 * request or of the old capacity, or a local the arm grows so (`new_cap = cap ? cap : 1024;
 * while (new_cap < need) new_cap *= 2; cap = new_cap;`) or sets so (`grown = cap ? 2 * cap :
 * len; ...; cap = grown;`). */
static int geometric_value(const gm_node *v, const struct capacity_writes *w) {
  v = gm_strip(v);
  if (!v)
    return 0;
  if (more_than(v, w->need) || more_than(v, w->cap) || more_than(v, w->tested_cap))
    return 1;
  if (v->kind != GM_N_VAR || gm_same_place(v, w->cap) || w->depth >= 3)
    return 0;
  struct capacity_writes local = {v, w->need, w->tested_cap, w->arm, w->depth + 1, 0};
  gm_walk(w->arm, find_geometric_write, &local);
  return local.geometric;
}

struct update_kinds {
  const gm_func *fn;
  const gm_node *loop;
  int var, depth;
  int up, down, other;
};

static int grows_in(const gm_func *fn, const gm_node *loop, const gm_node *e, int depth);

struct decl_init {
  int var;
  const gm_node *init;
  int decls;
};

static void find_decl_init(const gm_node *n, void *arg) {
  struct decl_init *d = arg;
  if (n->kind == GM_N_DECL && n->var == d->var) {
    d->decls++;
    d->init = gm_kid(n, 0);
  }
}

/* Whether e is at least var's value: `var + x`, `var * k`, or a local the loop declares so
 * (`total = need;` after `size_t need = total + len;`). */
static int at_least(const gm_node *loop, const gm_node *e, int var, int depth) {
  e = gm_strip(e);
  if (!e || depth > 6)
    return 0;
  if (e->kind == GM_N_VAR && e->var == var)
    return 1;
  if (e->kind == GM_N_VAR && e->var >= 0) {
    struct decl_init d = {e->var, NULL, 0};
    gm_walk(loop->kids[3], find_decl_init, &d);
    return d.decls == 1 && at_least(loop, d.init, var, depth + 1);
  }
  if (e->kind == GM_N_ARITH && (e->op == '+' || e->op == '*' || e->op == 'l'))
    return at_least(loop, e->kids[0], var, depth + 1) ||
           (e->op == '+' && at_least(loop, e->kids[1], var, depth + 1));
  return 0;
}

static void classify_update(const gm_node *n, void *arg) {
  struct update_kinds *u = arg;
  if (n->kind == GM_N_DECL && n->var == u->var) {
    /* declared in the loop: as large as its initialiser, afresh each time */
    if (n->nkids && grows_in(u->fn, u->loop, n->kids[0], u->depth + 1))
      u->up++;
    else
      u->other++;
    return;
  }
  if ((n->kind != GM_N_ASSIGN && n->kind != GM_N_INCDEC && n->kind != GM_N_ADDR) ||
      gm_root_var(n->kids[0]) != u->var || gm_strip(n->kids[0])->kind != GM_N_VAR)
    return;
  if (n->kind == GM_N_INCDEC) {
    if (n->op == '+')
      u->up++;
    else
      u->down++;
  } else if (n->kind == GM_N_ADDR) {
    u->other++;
  } else if (n->op && n->name) {
    if (strcmp(n->name, "+=") == 0 || strcmp(n->name, "*=") == 0 || strcmp(n->name, "<<=") == 0)
      u->up++;
    else
      u->down++;
  } else if (at_least(u->loop, n->kids[1], u->var, 0) ||
             grows_in(u->fn, u->loop, n->kids[1], u->depth + 1)) {
    u->up++; /* total = total + len; total = need; cap = n + len */
  } else {
    u->other++;
  }
}

int gm_grows_with_loop(const gm_func *fn, const gm_node *loop, const gm_node *e) {
  return grows_in(fn, loop, e, 0);
}

static int grows_in(const gm_func *fn, const gm_node *loop, const gm_node *e, int depth) {
  e = gm_strip(e);
  if (!e || depth > 6)
    return 0;
  if (e->kind == GM_N_VAR && e->var >= 0 && e->var < fn->nvars && loop->modified[e->var]) {
    struct update_kinds u = {fn, loop, e->var, depth, 0, 0, 0};
    for (int i = 1; i < 4; i++)
      gm_walk(gm_kid(loop, i), classify_update, &u);
    return u.up && !u.down && !u.other;
  }
  if (e->kind != GM_N_ARITH || e->nkids != 2)
    return 0; /* lens[i] does not grow with i */
  if (e->op == '+' || e->op == '*' || e->op == 'l')
    return grows_in(fn, loop, e->kids[0], depth + 1) || grows_in(fn, loop, e->kids[1], depth + 1);
  return (e->op == '-' || e->op == '/' || e->op == 'r') &&
         grows_in(fn, loop, e->kids[0], depth + 1);
}

/* How the arm of a size test runs against the capacity c it assigns: when c falls short of the
 * request (`c < n`, `n > c`, `n >= c`), when it is full (`c == n`), when the two differ. */
enum cap_test { CAP_OTHER, CAP_SHORT, CAP_FULL, CAP_CHANGED };

static enum cap_test cap_relation(const char *op, int cap_on_right, int holds) {
  static const char *const flip[][2] = {{"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}};
  static const char *const negate[][2] = {{"<", ">="}, {"<=", ">"},  {">", "<="},
                                          {">=", "<"}, {"==", "!="}, {"!=", "=="}};
  if (cap_on_right)
    for (size_t i = 0; i < sizeof flip / sizeof flip[0]; i++)
      if (strcmp(op, flip[i][0]) == 0) {
        op = flip[i][1];
        break;
      }
  if (!holds)
    for (size_t i = 0; i < sizeof negate / sizeof negate[0]; i++)
      if (strcmp(op, negate[i][0]) == 0) {
        op = negate[i][1];
        break;
      }
  if (op[0] == '<')
    return CAP_SHORT;
  return strcmp(op, "==") == 0 ? CAP_FULL : strcmp(op, "!=") == 0 ? CAP_CHANGED : CAP_OTHER;
}

struct place_write {
  const gm_node *place;
  int found;
};

static void find_place_write(const gm_node *n, void *arg) {
  struct place_write *w = arg;
  if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC) && gm_same_place(n->kids[0], w->place))
    w->found = 1;
}

/* `if (need > cap) { cudaFree(d); cap = 2 * need; cudaMalloc(&d, cap); }`: a size test whose
 * arm raises the capacity it compares. Growing it geometrically (2 * need, cap *= 2, need +
 * need / 2) bounds the regrowths to a logarithm of the final size. Raising it to the request
 * itself does only while requests do not grow with the loop (a new largest batch now and then);
 * an exact fit to a request the loop grows (`cap = total + len`) regrows on every iteration.
 * The capacity must hold across rounds: declared in the loop, or set on every path, it bounds
 * nothing. */
static gm_exemption capacity_exemption(const gm_func *fn, const gm_node *loop, const gm_node *cond,
                                       int holds, const gm_node *arm) {
  cond = gm_strip(cond);
  if (!cond || cond->kind != GM_N_CMP || !cond->name)
    return GM_EXEMPT_NONE;
  for (int i = 0; i < 2; i++) {
    const gm_node *cap = gm_strip(cond->kids[i]), *need = gm_strip(cond->kids[1 - i]);
    struct place_write w = {cap, 0};
    if (!is_place(cap) || gm_is_success_status(need) || need->kind == GM_N_NULL)
      continue;
    gm_walk(arm, find_place_write, &w);
    if (!w.found || reset_every_round(fn, loop, cap, ANY_VALUE, arm))
      continue;
    enum cap_test rel = cap_relation(cond->name, i == 1, holds);
    if (rel == CAP_SHORT || rel == CAP_FULL) {
      struct capacity_writes g = {cap, need, cap, arm, 0, 0};
      gm_walk(arm, find_geometric_write, &g);
      if (g.geometric)
        return GM_EXEMPT_GEOMETRIC_CAPACITY;
      if (rel == CAP_SHORT && (!loop || !grows_in(fn, loop, need, 0)))
        return GM_EXEMPT_HIGH_WATER;
    } else if (rel == CAP_CHANGED && (!loop || gm_loop_invariant(fn, loop, need))) {
      return GM_EXEMPT_SAME_REQUEST; /* if (cached != n) { ...; cached = n; }: once */
    }
  }
  return GM_EXEMPT_NONE;
}

/* How a write moves a counter: `c++`, `c += k`, `c = c + k` up, their mirrors down; anything
 * else, a declaration other than a static's (which runs once) included, sets it. */
static void classify_step(const gm_node *n, void *arg) {
  struct update_kinds *u = arg;
  if (n->kind == GM_N_DECL && n->var == u->var) {
    if (u->fn->vars[u->var].kind != GM_VAR_GLOBAL)
      u->other++;
    return;
  }
  if ((n->kind != GM_N_ASSIGN && n->kind != GM_N_INCDEC && n->kind != GM_N_ADDR) ||
      gm_root_var(n->kids[0]) != u->var || gm_strip(n->kids[0])->kind != GM_N_VAR)
    return;
  const gm_node *rhs = n->kind == GM_N_ASSIGN ? gm_strip(n->kids[1]) : NULL;
  if (n->kind == GM_N_INCDEC)
    n->op == '+' ? u->up++ : u->down++;
  else if (n->kind == GM_N_ASSIGN && n->op && n->name && strcmp(n->name, "+=") == 0)
    u->up++;
  else if (n->kind == GM_N_ASSIGN && n->op && n->name && strcmp(n->name, "-=") == 0)
    u->down++;
  else if (rhs && !n->op && rhs->kind == GM_N_ARITH && (rhs->op == '+' || rhs->op == '-') &&
           gm_strip(rhs->kids[0])->kind == GM_N_VAR && gm_strip(rhs->kids[0])->var == u->var &&
           gm_strip(rhs->kids[1])->has_value && gm_strip(rhs->kids[1])->value > 0)
    rhs->op == '+' ? u->up++ : u->down++;
  else
    u->other++;
}

/* `if (iter == 0) alloc_tables(n); ...; iter++;`: a test for one value of a counter that the
 * scope (the loop, or the function when loop is NULL) only moves one way and never sets again:
 * true once. A counter stepped both ways (`depth++; ...; depth--;`), reset (`calls = 0`), or
 * declared in the scope (an inner loop's counter, a local of the function) is not. */
static gm_exemption counter_value_exemption(const gm_func *fn, const gm_node *loop,
                                            const gm_node *cond, int holds) {
  cond = gm_strip(cond);
  if (!cond || cond->kind != GM_N_CMP || cond->nkids != 2 || (cond->op != '=' && cond->op != '!') ||
      (cond->op == '=') != holds)
    return GM_EXEMPT_NONE;
  for (int i = 0; i < 2; i++) {
    const gm_node *v = gm_strip(cond->kids[i]), *k = gm_strip(cond->kids[1 - i]);
    if (v->kind != GM_N_VAR || v->var < 0 || v->var >= fn->nvars || !k->has_value)
      continue;
    struct update_kinds u = {fn, loop, v->var, 0, 0, 0, 0};
    if (loop)
      for (int j = 1; j < 4; j++) /* an inner loop's init, in the body, sets its counter again */
        gm_walk(gm_kid(loop, j), classify_step, &u);
    else
      gm_walk(fn->body, classify_step, &u);
    if ((u.up != 0) != (u.down != 0) && !u.other)
      return GM_EXEMPT_COUNTER_VALUE;
  }
  return GM_EXEMPT_NONE;
}

/* The exemption a condition gives the arm it guards (the then arm when holds, else the else
 * arm): `A && B` guards when either does, `A || B` when both do (the arm runs when either
 * holds). */
static gm_exemption cond_exemption(const gm_func *fn, const gm_node *loop, const gm_node *cond,
                                   int holds, const gm_node *arm) {
  cond = gm_strip(cond);
  if (!cond)
    return GM_EXEMPT_NONE;
  if (cond->kind == GM_N_NOT)
    return cond_exemption(fn, loop, cond->kids[0], !holds, arm);
  if ((cond->kind == GM_N_LAND && holds) || (cond->kind == GM_N_LOR && !holds)) {
    gm_exemption a = cond_exemption(fn, loop, cond->kids[0], holds, arm);
    return a ? a : cond_exemption(fn, loop, cond->kids[1], holds, arm);
  }
  if (cond->kind == GM_N_LAND || cond->kind == GM_N_LOR) {
    gm_exemption a = cond_exemption(fn, loop, cond->kids[0], holds, arm);
    return a && cond_exemption(fn, loop, cond->kids[1], holds, arm) ? a : GM_EXEMPT_NONE;
  }
  gm_exemption why = lazy_exemption(fn, loop, cond, holds, arm);
  if (!why)
    why = capacity_exemption(fn, loop, cond, holds, arm);
  if (!why)
    why = counter_value_exemption(fn, loop, cond, holds);
  return why;
}

gm_exemption gm_alloc_guarded(const gm_func *fn, const gm_node *call, const gm_node *loop) {
  if (loop && gm_counter_once(call, loop))
    return GM_EXEMPT_COUNTER_ITERATION; /* if (dev == 0) cudaMallocHost(...) */
  const gm_node *child = call;
  for (const gm_node *p = call->parent; p && p != loop; child = p, p = p->parent) {
    if (p->kind != GM_N_IF || child == p->kids[0])
      continue;
    gm_exemption why = cond_exemption(fn, loop, p->kids[0], child == p->kids[1], child);
    if (why)
      return why;
  }
  return GM_EXEMPT_NONE;
}

/* ---- geometric growth ---- */

static int multiplies_each_iteration(const gm_node *loop, const gm_node *e, int depth);

struct multiply_writes {
  const gm_node *loop;
  int var, depth;
  int multiply, other;
};

static void classify_multiply(const gm_node *n, void *arg) {
  struct multiply_writes *m = arg;
  const gm_node *rhs = NULL;
  if (n->kind == GM_N_DECL && n->var == m->var)
    rhs = gm_kid(n, 0);
  else if ((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) &&
           gm_root_var(n->kids[0]) == m->var && gm_strip(n->kids[0])->kind == GM_N_VAR)
    rhs = n->kind == GM_N_ASSIGN && !n->op ? n->kids[1] : NULL;
  else
    return;
  double r;
  if (multiplies_in_place(n, n->kind == GM_N_DECL ? NULL : n->kids[0]))
    m->multiply++; /* cap *= 2 */
  else if (rhs && n->kind == GM_N_ASSIGN && ratio_to(rhs, n->kids[0], &r) && r > 1.001)
    m->multiply++; /* cap = cap * 2 */
  else if (rhs && multiplies_each_iteration(m->loop, rhs, m->depth + 1))
    m->multiply++; /* cap = new_cap, with new_cap = 2 * cap declared in the loop */
  else
    m->other++;
}

/* Whether e, a size, is multiplied on every iteration of the loop: each variable of the loop
 * it reads is only ever multiplied there (`cap *= 2`, `cap = 2 * cap`), or declared there from
 * such a value. */
static int multiplies_each_iteration(const gm_node *loop, const gm_node *e, int depth) {
  e = gm_strip(e);
  if (!e || depth > 4 || !gm_depends_on_loop(loop, e))
    return 0;
  if (e->kind == GM_N_VAR) {
    struct multiply_writes m = {loop, e->var, depth, 0, 0};
    for (int i = 1; i < 4; i++)
      gm_walk(gm_kid(loop, i), classify_multiply, &m);
    return m.multiply && !m.other;
  }
  if (e->kind == GM_N_ARITH && e->nkids == 2 && (e->op == '*' || e->op == 'l' || e->op == '+')) {
    for (int i = 0; i < 2; i++)
      if (gm_depends_on_loop(loop, e->kids[i]) &&
          !multiplies_each_iteration(loop, e->kids[i], depth + 1))
        return 0;
    return 1;
  }
  return 0;
}

gm_exemption gm_geometric_size(const gm_node *loop, const gm_node *call) {
  const gm_node *size =
      call->fn && call->fn->size_arg >= 0 ? gm_arg(call, call->fn->size_arg) : NULL;
  return size && multiplies_each_iteration(loop, size, 0) ? GM_EXEMPT_GEOMETRIC_SIZE
                                                          : GM_EXEMPT_NONE;
}

/* ---- all of them ---- */

gm_exemption gm_loop_exemption(const gm_func *fn, const gm_node *call, const gm_node *loop) {
  gm_exemption why = gm_retry_loop(loop, call);
  if (!why)
    why = gm_alloc_guarded(fn, call, loop);
  if (!why)
    why = gm_geometric_size(loop, call);
  return why;
}

const gm_node *gm_repeating_loop(const gm_func *fn, const gm_node *call, const gm_node *loop,
                                 gm_exemption *why) {
  *why = GM_EXEMPT_NONE;
  for (; loop; loop = gm_enclosing_loop(loop)) {
    gm_exemption e = gm_loop_exemption(fn, call, loop);
    if (!e)
      return loop;
    *why = e; /* once per run of this loop: the loop around it may still repeat that run */
  }
  return NULL;
}
