// expected-no-diagnostics
// Buffers put into an initializer list and released by iterating over it.
#include <cuda_runtime.h>

__global__ void axpby(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = 2.f * x[i] + y[i];
}

void compute(const float* hx, const float* hy, float* hz, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* dx = nullptr;
  float* dy = nullptr;
  float* dz = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMalloc(&dz, bytes);
  cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice);
  axpby<<<(n + 255) / 256, 256>>>(dx, dy, dz, n);
  cudaMemcpy(hz, dz, bytes, cudaMemcpyDeviceToHost);
  float* all[] = {dx, dy, dz};
  for (float* p : all)
    cudaFree(p);
}
