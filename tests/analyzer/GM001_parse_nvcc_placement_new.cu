// Placement new without including <new>: nvcc's runtime headers bring <new> in (CUB relies on
// it), clang's do not; gmemlint's compat header includes it, so this file parses cleanly and
// its leak is found.
#include <cuda_runtime.h>

struct Arena {
  float *base;
  size_t used;
};

Arena *make_arena(void *storage, size_t bytes) {
  Arena *a = new (storage) Arena{nullptr, 0};
  cudaMalloc(&a->base, bytes);
  return a;
}

int fill(const float *host, size_t n) {
  float *d_fill = nullptr;
  cudaMalloc(&d_fill, n * sizeof(float)); // expected-warning {{'d_fill' (device memory from cudaMalloc) is not freed on every path}}
  if (n == 0)
    return -1; // expected-note {{this return leaves without freeing 'd_fill'}}
  cudaMemcpy(d_fill, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d_fill);
  return 0;
}
