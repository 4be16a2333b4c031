// A switch with per-case returns: the unsupported-mode case forgets to free.
#include <cuda_runtime.h>
#include <stdio.h>

enum Mode { MODE_COPY = 0, MODE_ZERO = 1, MODE_OTHER = 2 };

int apply_mode(float* h, int n, int mode) {
  size_t bytes = (size_t)n * sizeof(float);
  float* d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'apply_mode' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
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
    cudaFree(d);
    return 0;
  default:
    fprintf(stderr, "unsupported mode %d\n", mode);
    return -2; // expected-note {{this return leaves without freeing 'd'}}
  }
}
