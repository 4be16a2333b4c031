/* The code tests/cli/mutate.sh mutates: tiny_test.c kills some of its mutants and lets others
 * live, on purpose. Never mutated: this comment (a < b, x == y, return 0;), the strings, the
 * directives and the arrays' sizes. */
#include "tiny.h"

#include <string.h>

#define TINY_TRUE (1 == 1)

/* both mutants (!=, 0) fail to compile: invalid */
_Static_assert(sizeof(char) == 1, "a char < 2 bytes");

static const int weights[3] = {2, 3, 5};
static int traced;

static void trace(void) {
  traced++;
}

int tiny_clamp(int v, int lo, int hi) {
  trace();    /* nothing reads the count: deleting the call survives */
  if (v < lo) /* v == lo returns lo either way: <= survives, as does >= below */
    return lo;
  if (v > hi)
    return hi;
  return v;
}

bool tiny_nonempty(const char *s) {
  if (!s)
    return false;
  return strcmp(s, "") != 0;
}

int tiny_halvings(int n) {
  int k = 0;
  while (n > 0) { /* n >= 0 never ends: killed by timeout */
    n = n / 2;
    k++;
  }
  return k;
}

int tiny_weight(int i) {
  return weights[i];
}

int tiny_both(int a, int b) {
  if (a && b)
    return 1;
  return 0;
}

/* array sizes, never mutated */
char tiny_names[2][8], tiny_label[16], *tiny_rows[4];
