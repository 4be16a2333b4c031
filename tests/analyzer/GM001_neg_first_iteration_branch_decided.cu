// expected-no-diagnostics
// On a counted loop's first iteration the counter equals its start, so a branch on arithmetic
// of it (`(r & 1) == 0`, `r % 2 == 0`, `r / 2 == 0`) goes one way only there: the path on which
// the first iteration takes the other branch, and no iteration stores the buffer, does not exist.
#include <cuda_runtime.h>

struct Tree {
  unsigned* levels[4];
};

int build_levels(Tree* t) {
  unsigned* heap;
  cudaMalloc((void**)&heap, 4096);
  for (unsigned r = 0; r < 8; r++)
    if ((r & 1) == 0)
      t->levels[r / 2] = heap + r / 2; // r == 0 stores heap itself
  return 0;
}

int build_even(Tree* t) {
  unsigned* heap;
  cudaMalloc((void**)&heap, 4096);
  for (int r = 0; r < 8; r++) {
    if (r % 2 != 0)
      continue;
    t->levels[r / 2] = heap + r;
  }
  return 0;
}
