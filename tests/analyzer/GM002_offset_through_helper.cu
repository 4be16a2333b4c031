// A helper that returns its pointer moved inside the block (`return p + 4`): what the caller frees
// through the result is not the pointer the allocation returned.
#include <cuda_runtime.h>

static float *aligned(float *p) { return p + 4; }

void release_aligned(size_t n) {
  float *d;
  cudaMalloc(&d, n + 16); // expected-note {{allocated here with cudaMalloc}}
  float *q = aligned(d);
  cudaFree(q); // expected-warning {{'d' (device memory from cudaMalloc) is given to cudaFree at an offset from the pointer the allocation returned; pass the original pointer [GM002 mismatched-free]}}
}
