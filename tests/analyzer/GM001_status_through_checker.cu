// A status passed through an inline checker that returns it (`check(cudaMalloc(...))`) decides
// the error path as a direct test does: when the second allocation fails, the first leaks on that
// error path; the failed one allocated nothing.
#include <cuda_runtime.h>
#include <stdio.h>

static inline cudaError_t check(cudaError_t e) {
  if (e != cudaSuccess)
    fprintf(stderr, "cuda: %s\n", cudaGetErrorString(e));
  return e;
}

int make_pair(size_t n) {
  float *a, *b;
  if (check(cudaMalloc(&a, n)) != cudaSuccess) // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'make_pair' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return 1;
  if (check(cudaMalloc(&b, n)) != cudaSuccess)
    return 2; // expected-note {{this return after a failed call leaves without freeing 'a'}}
  cudaFree(a);
  cudaFree(b);
  return 0;
}
