// expected-no-diagnostics
#include <cuda_runtime.h>

#include "lut.h"

__global__ void apply(const float *values, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = values[i % 1024];
}

int main() {
  float *d_out;
  cudaMalloc(&d_out, 4096 * sizeof(float));
  for (int step = 0; step < 10; ++step)
    apply<<<16, 256>>>(lookup_table().d_values, d_out, 4096);
  cudaFree(d_out);
  return 0;
}
