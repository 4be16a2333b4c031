// The twin of GM002_neg_free_after_ownership_query: the branches are swapped, so the caller's
// device buffer, which the query does not find host memory, reaches `free`.
#include <cuda_runtime.h>
#include <stdlib.h>

void release(void *p) {
  cudaPointerAttributes attr;
  cudaPointerGetAttributes(&attr, p);
  if (attr.type == cudaMemoryTypeHost || attr.type == cudaMemoryTypeUnregistered)
    cudaFree(p);
  else
    free(p);
}

void use(size_t n) {
  float *d;
  cudaMalloc(&d, n); // expected-note {{allocated here with cudaMalloc}}
  release(d); // expected-warning {{'d' (device memory from cudaMalloc) is released with release (which calls free), which frees host heap memory; use cudaFree}}
}
