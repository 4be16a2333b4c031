// The same helpers, with one error path that forgets to destroy the first buffer.
#include <cuda_runtime.h>
#include <stddef.h>

static void destroy_buffer(float** pp) {
  cudaFree(*pp);
  *pp = NULL;
}

int pipeline(size_t n) {
  float* d_a = NULL;
  float* d_b = NULL;
  cudaMalloc(&d_a, n * sizeof(float)); // expected-warning {{'d_a' (device memory from cudaMalloc) is not freed on an error path}}
  if (cudaMalloc(&d_b, n * sizeof(float)) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd_a'}}
  destroy_buffer(&d_a);
  destroy_buffer(&d_b);
  return 0;
}
