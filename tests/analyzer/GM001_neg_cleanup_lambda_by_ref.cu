// expected-no-diagnostics
// A by-reference cleanup lambda releases whatever has been allocated.
#include <cuda_runtime.h>

int three_buffers(int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  auto cleanup = [&]() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  };
  if (cudaMalloc(&a, bytes) != cudaSuccess) { cleanup(); return -1; }
  if (cudaMalloc(&b, bytes) != cudaSuccess) { cleanup(); return -1; }
  if (cudaMalloc(&c, bytes) != cudaSuccess) { cleanup(); return -1; }
  cudaMemcpy(c, a, bytes, cudaMemcpyDeviceToDevice);
  cudaMemcpy(c, b, bytes, cudaMemcpyDeviceToDevice);
  cleanup();
  return 0;
}
