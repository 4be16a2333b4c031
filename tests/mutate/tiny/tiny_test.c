/* The test of tiny.c: it checks weights 0 and 1 and not 2, and never v == lo or v == hi. */
#include "tiny.h"

#include <stddef.h>

int main(void) {
  int bad = 0;
  bad |= tiny_clamp(-5, 0, 10) != 0;
  bad |= tiny_clamp(50, 0, 10) != 10;
  bad |= tiny_clamp(5, 0, 10) != 5;
  bad |= tiny_nonempty(NULL) || tiny_nonempty("") || !tiny_nonempty("ab");
  bad |= tiny_halvings(8) != 4;
  bad |= tiny_weight(0) != 2 || tiny_weight(1) != 3;
  bad |= tiny_both(1, 1) != 1 || tiny_both(1, 0) != 0;
  return bad;
}
