// expected-no-diagnostics
#include <cuda_runtime.h>

#include "buffer.h"

__global__ void fill(float *p, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0.f;
}

int main() {
  Buffer b;
  for (size_t n = 1024; n < (1u << 20); n *= 2) {
    b.resize(n);
    fill<<<(n + 255) / 256, 256>>>(b.d_, n);
  }
  b.release();
  return 0;
}
