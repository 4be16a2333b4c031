// A capacity test in front of the realloc, but the capacity is raised exactly to the size, which
// grows by a chunk on every iteration: the test holds every time, and the array is regrown and
// copied on each one, as with no test at all.
#include <stdlib.h>
#include <string.h>

int *collect(const int *src, size_t len, int rounds, size_t *count) {
  int *h = nullptr;
  size_t n = 0, cap = 0;
  for (int r = 0; r < rounds; ++r) {
    if (cap < n + len) {
      cap = n + len;
      h = (int *)realloc(h, cap * sizeof(int)); // expected-warning {{this buffer is regrown on every iteration: realloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out}}
    }
    memcpy(h + n, src, len * sizeof(int));
    n += len;
  }
  *count = n;
  return h;
}
