// expected-no-diagnostics
// A local pointer is placed into a caller-provided table slot.
#include <cuda_runtime.h>

int alloc_levels(float** levels, int nlevels, int base) {
  for (int l = 0; l < nlevels; ++l)
    levels[l] = nullptr;
  int size = base;
  for (int l = 0; l < nlevels; ++l) {
    float* lvl = nullptr;
    if (cudaMalloc(&lvl, size * sizeof(float)) != cudaSuccess)
      return -1;
    levels[l] = lvl;
    size = size > 1 ? size / 2 : 1;
  }
  return 0;
}
// expected-rules-unchecked GM010: GM010 reports a loop that keeps each block in a table through a local, as docs/rules/GM010.md says it does when the loop selects no device
