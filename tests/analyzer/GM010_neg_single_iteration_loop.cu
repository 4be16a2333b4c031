// expected-no-diagnostics
// A loop whose bound makes it run exactly once (left over from a multi-GPU
// version with the device count pinned to 1).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void fill(float* v, float x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = x;
}

void setup(float** d_bufs, int n) {
  for (int dev = 0; dev < 1; ++dev) {
    cudaSetDevice(dev);
    cudaMalloc(&d_bufs[dev], n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(d_bufs[dev], 1.0f, n);
  }
}

void teardown(float** d_bufs) {
  for (int dev = 0; dev < 1; ++dev) {
    cudaSetDevice(dev);
    cudaFree(d_bufs[dev]);
  }
}
