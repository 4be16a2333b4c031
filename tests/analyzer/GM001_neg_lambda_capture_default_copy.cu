// expected-no-diagnostics
// Buffers captured by [=] and by explicit reference [&d_b] in a release lambda.
#include <cuda_runtime.h>

int two(int n) {
  float* d_a = nullptr;
  float* d_b = nullptr;
  if (cudaMalloc(&d_a, n * sizeof(float)) != cudaSuccess)
    return -1;
  auto release_a = [=]() { cudaFree(d_a); };
  if (cudaMalloc(&d_b, n * sizeof(float)) != cudaSuccess) {
    release_a();
    return -1;
  }
  auto release_b = [&d_b]() { cudaFree(d_b); };
  cudaMemcpy(d_b, d_a, n * sizeof(float), cudaMemcpyDeviceToDevice);
  release_b();
  release_a();
  return 0;
}
