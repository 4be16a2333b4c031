// expected-no-diagnostics
// Multi-buffer setup done right: every error path frees what was allocated.
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int run_saxpy(const float* hx, float* hy, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* dx = nullptr;
  float* dy = nullptr;
  if (cudaMalloc(&dx, bytes) != cudaSuccess)
    return -1;
  if (cudaMalloc(&dy, bytes) != cudaSuccess) {
    cudaFree(dx);
    return -1;
  }
  cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
