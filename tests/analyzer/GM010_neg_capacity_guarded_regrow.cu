// expected-no-diagnostics
// Capacity-guarded regrowth: the buffer is reallocated only when a batch is
// larger than any seen before, and the capacity is updated in that branch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void normalize(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] / (1.f + v[i]);
}

void run(const float* const* h_batches, const int* lens, int nbatch, float* h_out) {
  float* d = nullptr;
  size_t cap = 0;
  for (int b = 0; b < nbatch; ++b) {
    size_t need = (size_t)lens[b] * sizeof(float);
    if (need > cap) {
      cudaFree(d);
      cudaMalloc(&d, need);
      cap = need;
    }
    cudaMemcpy(d, h_batches[b], need, cudaMemcpyHostToDevice);
    normalize<<<(lens[b] + 255) / 256, 256>>>(d, lens[b]);
    cudaMemcpy(h_out, d, need, cudaMemcpyDeviceToHost);
    h_out += lens[b];
  }
  cudaFree(d);
}
