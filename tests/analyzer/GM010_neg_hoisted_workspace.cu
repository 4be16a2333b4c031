// expected-no-diagnostics
// The fix for allocation-in-loop: the workspace is allocated once before the
// loop and reused on every step.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void relax(float* next, const float* cur, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) next[i] = 0.5f * (cur[i - 1] + cur[i + 1]);
}

void jacobi(float* d_u, int n, int iters) {
  float* d_tmp = nullptr;
  cudaMalloc(&d_tmp, n * sizeof(float));
  cudaMemcpy(d_tmp, d_u, n * sizeof(float), cudaMemcpyDeviceToDevice);
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256>>>(d_tmp, d_u, n);
    cudaMemcpy(d_u, d_tmp, n * sizeof(float), cudaMemcpyDeviceToDevice);
  }
  cudaDeviceSynchronize();
  cudaFree(d_tmp);
}
