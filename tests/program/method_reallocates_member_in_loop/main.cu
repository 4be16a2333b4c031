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
    b.resize(n); // expected-warning {{'b.d_' (device memory from resize) leaks: its only pointer is overwritten before it is freed; call cudaFree first, or allocate once outside the loop [GM001 unpaired-allocation]}} expected-note {{overwritten here while it still owns the memory}}
    fill<<<(n + 255) / 256, 256>>>(b.d_, n);
  }
  b.release();
  return 0;
}
