// expected-no-diagnostics
// An inner block declares its own `buf`; each one is freed exactly once.
#include <cuda_runtime.h>
#include <stdlib.h>

int nested(int n) {
  float* buf = nullptr;
  if (cudaMalloc(&buf, n * sizeof(float)) != cudaSuccess)
    return -1;
  {
    float* buf = (float*)malloc(n * sizeof(float));
    if (buf) {
      for (int i = 0; i < n; ++i) buf[i] = 1.f;
      free(buf);
    }
  }
  cudaMemset(buf, 0, n * sizeof(float));
  cudaFree(buf);
  return 0;
}
