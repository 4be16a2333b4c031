// expected-no-diagnostics
// The error branch frees and returns, so the later free is not reached twice.
#include <cuda_runtime.h>
#include <stdio.h>

int transform(float* h, int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  if (cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
    fprintf(stderr, "upload failed\n");
    cudaFree(d);
    return -1;
  }
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return 0;
}
