// Multi-buffer setup: the second cudaMalloc fails and the function returns
// without releasing the first buffer.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int run_saxpy(const float* hx, float* hy, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* dx = nullptr;
  float* dy = nullptr;
  if (cudaMalloc(&dx, bytes) != cudaSuccess) // expected-warning {{'dx' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'run_saxpy' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  if (cudaMalloc(&dy, bytes) != cudaSuccess)
    return -1; // dx leaks here expected-note {{this return after a failed call leaves without freeing 'dx'}}
  cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return 0;
}
