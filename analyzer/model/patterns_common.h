/* Private to the pattern queries of patterns.h (loop_patterns.c, kernel_patterns.c): the node
 * helper both use. */
#ifndef GM_PATTERNS_COMMON_H
#define GM_PATTERNS_COMMON_H

#include "model/model.h"

/* e with single-operand wrappers (casts, parentheses) seen through. */
static inline const gm_node *strip(const gm_node *e) {
  while (e && e->kind == GM_N_OTHER && e->nkids == 1)
    e = e->kids[0];
  return e;
}

#endif
