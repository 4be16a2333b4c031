// expected-no-diagnostics
// Freed in each branch of an if/else: exactly once on every path.
#include <cuda_runtime.h>
#include <stdio.h>

int finish(float* h, int n, bool keep_result) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemset(d, 0, n * sizeof(float));
  if (keep_result) {
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
  } else {
    printf("discarding result\n");
    cudaFree(d);
  }
  return 0;
}
