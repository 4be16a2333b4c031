// expected-no-diagnostics
// The allocation reaches a global through an intermediate alias.
#include <cuda_runtime.h>

float* g_lut = nullptr;

int load_lut(const float* h, int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  float* keep = d;
  g_lut = keep;
  return 0;
}
