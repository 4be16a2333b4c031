/* A for loop's counter: `for (c = S; c < B; ++c)` moves c one way, so c equals a value the loop
 * leaves alone on one iteration at most, the first iteration is the one where c == S, and with a
 * step of 1 the last is the one where c == B - 1. The flow engine turns this into facts about each
 * iteration (analyzer/flow/cond.c); GM010 reads gm_counter_once. */
#ifndef GM_LOOP_COUNTER_H
#define GM_LOOP_COUNTER_H

#include "model/model.h"

typedef struct gm_counter {
  int var;              /* the counter */
  const gm_node *start; /* what the loop's init sets it to */
  int dir;              /* +1: it counts up; -1: down */
  int unit;             /* it steps by exactly 1 */
  const gm_node *bound; /* the condition compares it with this; NULL: no plain comparison */
  const char *cmp;      /* how, the counter on the left: "<", "<=", ">", ">=" or "!=" */
} gm_counter;

/* The variable a for loop's init sets (`for (int c = S; ...)`, `for (c = S; ...)`) and *start,
 * what it sets it to (NULL if nothing); -1 for another loop or init. */
int gm_loop_init(const gm_node *loop, const gm_node **start);

/* Whether `loop` is a for loop whose init sets a variable c and whose increment steps it one way
 * by a nonzero constant (++c, c--, c += 2), with a condition and body that never write c. */
int gm_loop_counter(const gm_node *loop, gm_counter *out);

/* Whether cond is `c == V` or `V == c` (*eq = 1) or `c != V` (*eq = 0) for counter c, V not
 * reading c; *value: V. */
int gm_counter_test(const gm_counter *c, const gm_node *cond, const gm_node **value, int *eq);

/* Whether `call` runs on one iteration of `loop` at most: inside `if (c == V)` (or the else arm
 * of `if (c != V)`), c the loop's counter and V a value the loop leaves unchanged (it reads no
 * variable the loop writes and calls nothing). */
int gm_counter_once(const gm_node *call, const gm_node *loop);

/* Whether `loop` flips a mode flag and runs at most twice: its condition reads only the flag
 * (`while (transposed)`, `!flag`, `flag == false`), the body (or increment) sets it to `!flag`
 * on every path that goes round, nothing else in the loop writes it, and the body reads it
 * besides (a mode, not a count). The condition alternates, so a second test after a true one
 * fails. */
int gm_loop_flips_flag(const gm_node *loop);

#endif
