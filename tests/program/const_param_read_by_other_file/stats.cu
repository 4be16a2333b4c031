// expected-no-diagnostics
#include <cuda_runtime.h>

#include "stats.cuh"

float checksum(const float *p, int n) {
  float host[16] = {0};
  cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost);
  float s = 0;
  for (int i = 0; i < 16 && i < n; ++i)
    s += host[i];
  return s;
}
