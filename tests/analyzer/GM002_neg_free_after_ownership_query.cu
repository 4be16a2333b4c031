// expected-no-diagnostics
// A release helper that asks the runtime who owns the pointer: `free` runs only in the branch
// where cudaPointerGetAttributes says host memory, `cudaFree` in the other. The caller's device
// buffer reaches the cudaFree. The twin GM002_ownership_query_branches_swapped frees each kind
// with the other's call.
#include <cuda_runtime.h>
#include <stdlib.h>

void release(void *p) {
  cudaPointerAttributes attr;
  cudaPointerGetAttributes(&attr, p);
  if (attr.type == cudaMemoryTypeHost || attr.type == cudaMemoryTypeUnregistered)
    free(p);
  else
    cudaFree(p);
}

void use(size_t n) {
  float *d;
  cudaMalloc(&d, n);
  release(d);
}
