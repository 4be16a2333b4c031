// expected-no-diagnostics
// Host and kernel alternate on the managed buffer, but the loop prefetches
// explicitly in both directions, so migration is bulk and intentional.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void step_kernel(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * 0.5f + 1.f;
}

float run(int n, int iters, cudaStream_t s) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation gpu = {};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = dev;
  cudaMemLocation cpu = {};
  cpu.type = cudaMemLocationTypeHost;
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float));
  float total = 0.f;
  for (int it = 0; it < iters; ++it) {
    v[it % n] = (float)it;
    cudaMemPrefetchAsync(v, n * sizeof(float), gpu, 0, s);
    step_kernel<<<(n + 255) / 256, 256, 0, s>>>(v, n);
    cudaMemPrefetchAsync(v, n * sizeof(float), cpu, 0, s);
    cudaStreamSynchronize(s);
    total += v[0];
  }
  cudaFree(v);
  return total;
}
