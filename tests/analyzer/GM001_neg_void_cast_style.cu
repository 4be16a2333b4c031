// expected-no-diagnostics
// Older sample style: cudaMalloc((void**)&p, ...) and a release helper that
// frees two parameters.
#include <cuda_runtime.h>

static void cleanup(float* a, int* b) {
  cudaFree(a);
  cudaFree(b);
}

int legacy(int n) {
  float* d_vals;
  int* d_idx;
  cudaMalloc((void**)&d_vals, n * sizeof(float));
  cudaMalloc((void**)&d_idx, n * sizeof(int));
  cudaMemset(d_vals, 0, n * sizeof(float));
  cudaMemset(d_idx, 0, n * sizeof(int));
  cleanup(d_vals, d_idx);
  return 0;
}
