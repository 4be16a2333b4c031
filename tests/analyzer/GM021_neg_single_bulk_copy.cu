// expected-no-diagnostics
// The fix: one bulk copy replaces the per-element loop. The host loop only
// prepares data.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

void upload(float* d, int n) {
  float* h = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i * 0.5f;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  free(h);
}

int main() {
  const int n = 1 << 20;
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  upload(d, n);
  cudaFree(d);
  return 0;
}
