// expected-no-diagnostics
// The allocation status is kept in a variable and checked afterwards.
#include <cuda_runtime.h>
#include <stdio.h>

cudaError_t prefix_sum_setup(int n) {
  int* d_keys = nullptr;
  cudaError_t e = cudaMalloc(&d_keys, n * sizeof(int));
  if (e)
    return e;
  int* d_vals = nullptr;
  cudaError_t e2 = cudaMalloc(&d_vals, n * sizeof(int));
  if (e2 != cudaSuccess) {
    fprintf(stderr, "%s\n", cudaGetErrorString(e2));
    cudaFree(d_keys);
    return e2;
  }
  cudaMemset(d_keys, 0, n * sizeof(int));
  cudaMemset(d_vals, 0, n * sizeof(int));
  cudaFree(d_vals);
  cudaFree(d_keys);
  return cudaSuccess;
}
