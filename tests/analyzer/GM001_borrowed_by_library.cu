// A device buffer handed to a toolkit library (cuBLAS here) is borrowed, not taken: the library
// reads it and keeps nothing, so the buffer still has to be freed.
#include <cublas_v2.h>
#include <cuda_runtime.h>

int norm_of(cublasHandle_t handle, const float* host, int n, float* result) {
  float* d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(float)); // expected-warning {{'d_x' (device memory from cudaMalloc) is not freed on an error path}}
  cublasSetVector(n, sizeof(float), host, 1, d_x, 1);
  if (cublasSnrm2(handle, n, d_x, 1, result) != CUBLAS_STATUS_SUCCESS)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd_x'}}
  cudaFree(d_x);
  return 0;
}

int partial_norm(cublasHandle_t handle, int n, float* result) {
  float* d_y = nullptr;
  cudaMalloc(&d_y, 2 * n * sizeof(float)); // expected-warning {{'d_y' (device memory from cudaMalloc) is not freed on every path}}
  cudaMemset(d_y, 0, 2 * n * sizeof(float));
  cublasSnrm2(handle, n, &d_y[n], 1, result); // an interior pointer is still d_y's
  return 0; // expected-note {{this return leaves without freeing 'd_y'}}
}
