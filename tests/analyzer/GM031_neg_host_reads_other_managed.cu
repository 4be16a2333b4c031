// expected-no-diagnostics
// Two managed buffers: in the loop, one is only launched on, and the other
// is only read by the host (it was written by a kernel before the loop).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void make_table(float* table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) table[i] = 1.f / (1 + i);
}

__global__ void iterate(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f;
}

float run(int n, int iters) {
  float* table = nullptr;
  float* x = nullptr;
  cudaMallocManaged(&table, n * sizeof(float));
  cudaMallocManaged(&x, n * sizeof(float));
  make_table<<<(n + 255) / 256, 256>>>(table, n);
  cudaMemset(x, 0, n * sizeof(float));
  cudaDeviceSynchronize();
  float acc = 0.f;
  for (int it = 0; it < iters; ++it) {
    iterate<<<(n + 255) / 256, 256>>>(x, n);
    acc += table[it % n];
  }
  cudaDeviceSynchronize();
  cudaFree(table);
  cudaFree(x);
  return acc;
}
