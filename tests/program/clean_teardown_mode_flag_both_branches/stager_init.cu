// expected-no-diagnostics
#include <cuda_runtime.h>

#include "stager.h"

void stager_init(Stager *s, bool overlap, size_t n) {
  s->overlap = overlap;
  cudaMallocHost(&s->h_pinned, n * sizeof(float));
  cudaMalloc(&s->d_buf, n * sizeof(float));
}
