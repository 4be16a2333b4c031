// expected-no-diagnostics
// Lazy initialisation: the buffer is allocated on the first iteration only,
// guarded by a null test of the same pointer.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void accumulate(float* acc, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += x[i];
}

void sum_batches(const float* const* d_batches, int nbatch, int n, float* h_out) {
  float* d_acc = nullptr;
  for (int b = 0; b < nbatch; ++b) {
    if (!d_acc) {
      cudaMalloc(&d_acc, n * sizeof(float));
      cudaMemset(d_acc, 0, n * sizeof(float));
    }
    accumulate<<<(n + 255) / 256, 256>>>(d_acc, d_batches[b], n);
  }
  if (d_acc) {
    cudaMemcpy(h_out, d_acc, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_acc);
  }
}
