// expected-no-diagnostics
#include <cuda_runtime.h>

#include "pool.h"

__global__ void fill_kernel(float *p, size_t count) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    p[i] = 0.f;
}

void fill(float *p, size_t count) { fill_kernel<<<(count + 255) / 256, 256>>>(p, count); }

int pool_alloc(float **out, size_t count) { return cudaMallocHost(out, count * sizeof(float)); }

void pool_free(float *p) { cudaFreeHost(p); }
