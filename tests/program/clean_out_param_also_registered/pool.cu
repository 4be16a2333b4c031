// expected-no-diagnostics
#include <cuda_runtime.h>

#include "pool.cuh"

void pool_buffer(float **out, BufferPool *pool, size_t n) {
  float *buffer;
  cudaMalloc(&buffer, n * sizeof(float));
  *out = buffer;
  pool->buffers[pool->count++] = buffer;
}

void pool_release_all(BufferPool *pool) {
  for (int i = 0; i < pool->count; ++i)
    cudaFree(pool->buffers[i]);
  pool->count = 0;
}
