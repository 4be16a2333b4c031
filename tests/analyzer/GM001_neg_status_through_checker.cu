// expected-no-diagnostics
// The clean twin of GM001_status_through_checker: the checked status decides that a failed
// allocation left nothing to free, in the caller and through a create helper that returns it.
#include <cuda_runtime.h>
#include <stdio.h>

static inline cudaError_t check(cudaError_t e) {
  if (e != cudaSuccess)
    fprintf(stderr, "cuda: %s\n", cudaGetErrorString(e));
  return e;
}

int make(float **out, size_t n) {
  float *d;
  if (check(cudaMalloc(&d, n)) != cudaSuccess)
    return 1;
  *out = d;
  return 0;
}

cudaError_t make2(float **out, size_t n) { return check(cudaMalloc(out, n)); }

int use2(size_t n) {
  float *p;
  if (make2(&p, n) != cudaSuccess)
    return 1;
  cudaFree(p);
  return 0;
}
