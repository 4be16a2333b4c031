// expected-no-diagnostics
// The buffer is captured by a cleanup lambda that is invoked later.
#include <cuda_runtime.h>

__global__ void twice(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2.f;
}

int double_all(float* h, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess)
    return -1;
  auto release = [d]() { cudaFree(d); };
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  twice<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  release();
  return 0;
}
