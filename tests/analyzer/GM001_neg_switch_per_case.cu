// expected-no-diagnostics
// A switch with per-case returns, each one freeing the buffer first.
#include <cuda_runtime.h>
#include <stdio.h>

enum Mode { MODE_COPY = 0, MODE_ZERO = 1 };

int apply_mode(float* h, int n, int mode) {
  size_t bytes = (size_t)n * sizeof(float);
  float* d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess)
    return -1;
  switch (mode) {
  case MODE_COPY:
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    cudaFree(d);
    return 0;
  case MODE_ZERO:
    cudaMemset(d, 0, bytes);
    cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    break;
  default:
    fprintf(stderr, "unsupported mode %d\n", mode);
    cudaFree(d);
    return -2;
  }
  cudaFree(d);
  return 0;
}
