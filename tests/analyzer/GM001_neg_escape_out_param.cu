// expected-no-diagnostics
// Ownership passed to the caller through an out-parameter (*out = p).
#include <cuda_runtime.h>

cudaError_t create_device_vector(float** out, const float* h, int n) {
  *out = nullptr;
  float* d = nullptr;
  cudaError_t e = cudaMalloc(&d, n * sizeof(float));
  if (e != cudaSuccess)
    return e;
  e = cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    cudaFree(d);
    return e;
  }
  *out = d;
  return cudaSuccess;
}
