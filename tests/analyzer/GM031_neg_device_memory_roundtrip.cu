// expected-no-diagnostics
// The same alternation with explicit device memory and cudaMemcpy: the host
// touches its own array, the kernel its own buffer. Nothing is managed.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void evolve(float* s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = 0.9f * s[i] + 0.1f;
}

int main() {
  const int n = 4096;
  float* h = (float*)calloc(n, sizeof(float));
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  for (int step = 0; step < 50; ++step) {
    h[step] += 1.f;
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    evolve<<<n / 256, 256>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  printf("%f\n", h[0]);
  cudaFree(d);
  free(h);
  return 0;
}
