/* The counters of for loops and the tests that compare one with a value (loop_counter.h). */
#include "model/loop_counter.h"

#include <string.h>

/* Casts are not seen through: the model cannot tell `(int)c` from `-c`. */
static int is_var(const gm_node *e, int var) {
  return e && e->kind == GM_N_VAR && e->var == var;
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

/* The direction and size of the increment: ++c, c--, c += K, c -= K with K a nonzero constant. */
static int step_of(const gm_node *inc, int var, int *unit) {
  if (!inc || !is_var(gm_kid(inc, 0), var))
    return 0;
  if (inc->kind == GM_N_INCDEC && (inc->op == '+' || inc->op == '-')) {
    *unit = 1;
    return inc->op == '+' ? 1 : -1;
  }
  const gm_node *k = gm_kid(inc, 1);
  long long by = 0;
  if (inc->kind == GM_N_ASSIGN && !inc->op) { /* c = c + K, c = (T)((int)c + K) */
    const gm_node *sum = gm_strip(k);
    if (!sum || sum->kind != GM_N_ARITH || (sum->op != '+' && sum->op != '-'))
      return 0;
    const gm_node *c = gm_strip(sum->kids[0]), *d = sum->kids[1];
    if (!is_var(c, var) || !d->has_value || !d->value)
      return 0;
    by = sum->op == '+' ? d->value : -d->value;
  } else {
    if (inc->kind != GM_N_ASSIGN || !inc->op || !inc->name || !k || !k->has_value || !k->value)
      return 0;
    int sign = strcmp(inc->name, "+=") == 0 ? 1 : strcmp(inc->name, "-=") == 0 ? -1 : 0;
    by = sign * k->value;
  }
  *unit = by == 1 || by == -1;
  return by > 0 ? 1 : by < 0 ? -1 : 0;
}

static const char *flipped(const char *op) {
  static const char *pairs[][2] = {
      {"<", ">"}, {"<=", ">="}, {">", "<"}, {">=", "<="}, {"!=", "!="}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (strcmp(op, pairs[i][0]) == 0)
      return pairs[i][1];
  return NULL;
}

int gm_loop_init(const gm_node *loop, const gm_node **start) {
  const gm_node *init = gm_kid(loop, 0);
  *start = NULL;
  if (!loop || loop->kind != GM_N_LOOP || loop->op != GM_LOOP_FOR || !init)
    return -1;
  while (init && (init->kind == GM_N_SEQ || init->kind == GM_N_COMMA) && init->nkids == 1)
    init = init->kids[0];
  if (init && init->kind == GM_N_DECL && init->nkids == 1) {
    *start = init->kids[0];
    return init->var;
  }
  if (init && init->kind == GM_N_ASSIGN && !init->op && gm_kid(init, 0) &&
      init->kids[0]->kind == GM_N_VAR) {
    *start = gm_kid(init, 1);
    return init->kids[0]->var;
  }
  return -1;
}

int gm_loop_counter(const gm_node *loop, gm_counter *out) {
  memset(out, 0, sizeof *out);
  out->var = gm_loop_init(loop, &out->start);
  if (out->var < 0 || !out->start || gm_mentions_var(out->start, out->var))
    return 0;
  out->dir = step_of(gm_kid(loop, 2), out->var, &out->unit);
  if (!out->dir || writes_var(gm_kid(loop, 3), out->var) || writes_var(gm_kid(loop, 1), out->var))
    return 0;
  const gm_node *cond = gm_kid(loop, 1);
  if (cond && cond->kind == GM_N_CMP && cond->name && cond->op != '=') {
    const gm_node *a = gm_kid(cond, 0), *b = gm_kid(cond, 1);
    if (is_var(a, out->var) && !gm_mentions_var(b, out->var)) {
      out->bound = b;
      out->cmp = flipped(cond->name) ? cond->name : NULL;
    } else if (is_var(b, out->var) && !gm_mentions_var(a, out->var)) {
      out->bound = a;
      out->cmp = flipped(cond->name);
    }
    if (!out->cmp)
      out->bound = NULL;
  }
  return 1;
}

int gm_counter_test(const gm_counter *c, const gm_node *cond, const gm_node **value, int *eq) {
  if (!cond || cond->kind != GM_N_CMP || (cond->op != '=' && cond->op != '!'))
    return 0;
  const gm_node *a = gm_kid(cond, 0), *b = gm_kid(cond, 1);
  const gm_node *v = is_var(a, c->var) ? b : is_var(b, c->var) ? a : NULL;
  if (!v || gm_mentions_var(v, c->var))
    return 0;
  *value = v;
  *eq = cond->op == '=';
  return 1;
}

/* Whether an if's arm (then_arm: the then arm) runs only where cond holds a counter test that is
 * true on one iteration at most. */
static int unchanged_by(const gm_node *loop, const gm_node *e) {
  if (!e)
    return 1;
  if (e->kind == GM_N_CALL || e->kind == GM_N_ASSIGN || e->kind == GM_N_INCDEC)
    return 0;
  if (e->kind == GM_N_VAR && e->var >= 0 && loop->modified && loop->modified[e->var])
    return 0;
  for (int i = 0; i < e->nkids; i++)
    if (!unchanged_by(loop, e->kids[i]))
      return 0;
  return 1;
}

static int arm_once(const gm_node *loop, const gm_counter *c, const gm_node *cond, int then_arm) {
  if (cond && cond->kind == GM_N_LAND && then_arm)
    return arm_once(loop, c, gm_kid(cond, 0), 1) || arm_once(loop, c, gm_kid(cond, 1), 1);
  if (cond && cond->kind == GM_N_LOR && !then_arm)
    return arm_once(loop, c, gm_kid(cond, 0), 0) || arm_once(loop, c, gm_kid(cond, 1), 0);
  if (cond && cond->kind == GM_N_NOT)
    return arm_once(loop, c, gm_kid(cond, 0), !then_arm);
  const gm_node *v;
  int eq;
  return gm_counter_test(c, cond, &v, &eq) && eq == then_arm && unchanged_by(loop, v);
}

int gm_counter_once(const gm_node *call, const gm_node *loop) {
  gm_counter c;
  if (!gm_loop_counter(loop, &c))
    return 0;
  const gm_node *child = call;
  for (const gm_node *p = call->parent; p && p != loop; child = p, p = p->parent)
    if (p->kind == GM_N_IF && child != p->kids[0] &&
        arm_once(loop, &c, p->kids[0], child == p->kids[1]))
      return 1;
  return 0;
}

struct flag_uses {
  int var;
  int writes, reads;
};

static void count_flag_uses(const gm_node *n, void *arg) {
  struct flag_uses *f = arg;
  if (((n->kind == GM_N_ASSIGN || n->kind == GM_N_INCDEC || n->kind == GM_N_ADDR) &&
       gm_root_var(gm_kid(n, 0)) == f->var) ||
      (n->kind == GM_N_DECL && n->var == f->var))
    f->writes++;
  if (n->kind == GM_N_VAR && n->var == f->var)
    f->reads++;
}

/* Whether n holds a continue of the loop around it (an inner loop's are its own). */
static int has_continue(const gm_node *n) {
  if (!n || n->kind == GM_N_LOOP || n->kind == GM_N_LAMBDA)
    return 0;
  if (n->kind == GM_N_CONTINUE)
    return 1;
  for (int i = 0; i < n->nkids; i++)
    if (has_continue(n->kids[i]))
      return 1;
  return 0;
}

/* `flag = !flag;` run on every path through statement n that goes round again: a statement of
 * the block itself or of a block in it, with no continue before it. */
static const gm_node *flip_in(const gm_node *n, int var) {
  if (!n)
    return NULL;
  if (n->kind == GM_N_ASSIGN && !n->op) {
    const gm_node *rhs = gm_strip(n->kids[1]);
    return is_var(n->kids[0], var) && rhs->kind == GM_N_NOT && is_var(gm_strip(rhs->kids[0]), var)
               ? n
               : NULL;
  }
  if (n->kind != GM_N_SEQ)
    return NULL;
  for (int i = 0; i < n->nkids; i++) {
    const gm_node *f = flip_in(n->kids[i], var);
    if (f)
      return f;
    if (has_continue(n->kids[i]))
      return NULL;
  }
  return NULL;
}

int gm_loop_flips_flag(const gm_node *loop) {
  if (!loop || loop->kind != GM_N_LOOP || loop->op == GM_LOOP_RANGE)
    return 0;
  const gm_node *cond = gm_strip(gm_kid(loop, 1));
  while (cond && cond->kind == GM_N_NOT)
    cond = gm_strip(cond->kids[0]);
  if (cond && cond->kind == GM_N_CMP && (cond->op == '=' || cond->op == '!') &&
      gm_strip(cond->kids[1])->has_value)
    cond = gm_strip(cond->kids[0]); /* flag == false */
  if (!cond || cond->kind != GM_N_VAR || cond->var < 0)
    return 0;
  int var = cond->var;
  const gm_node *flip = flip_in(gm_kid(loop, 3), var);
  if (!flip && gm_kid(loop, 2) && flip_in(loop->kids[2], var))
    flip = loop->kids[2]; /* for (...; mode; mode = !mode) */
  if (!flip)
    return 0;
  struct flag_uses all = {var, 0, 0}, in_flip = {var, 0, 0};
  for (int i = 1; i < 4; i++)
    gm_walk(gm_kid(loop, i), count_flag_uses, &all);
  gm_walk(flip, count_flag_uses, &in_flip);
  int in_cond = 1;
  /* one write, the flip; and the body reads the mode besides the flip and the condition */
  return all.writes == 1 && all.reads > in_flip.reads + in_cond;
}
