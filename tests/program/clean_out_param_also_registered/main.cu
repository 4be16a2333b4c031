// expected-no-diagnostics
#include <cuda_runtime.h>

#include "pool.cuh"

__global__ void fill(float *x, size_t n, float v) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = v;
}

int main() {
  BufferPool pool = {};
  float *activations, *gradients;
  pool_buffer(&activations, &pool, 1 << 20);
  pool_buffer(&gradients, &pool, 1 << 20);
  fill<<<4096, 256>>>(activations, 1 << 20, 1.0f);
  fill<<<4096, 256>>>(gradients, 1 << 20, 0.0f);
  pool_release_all(&pool);
  return 0;
}
