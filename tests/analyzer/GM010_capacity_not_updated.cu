// Looks like capacity-guarded regrowth, but the capacity is never updated in
// the branch, so every batch larger than the initial capacity reallocates.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void normalize(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] / (1.f + v[i]);
}

void run(const float* const* h_batches, const int* lens, int nbatch, float* h_out) {
  size_t cap = 1024 * sizeof(float);
  float* d = nullptr;
  cudaMalloc(&d, cap);
  for (int b = 0; b < nbatch; ++b) { // expected-note {{the loop}}
    size_t need = (size_t)lens[b] * sizeof(float);
    if (need > cap) {
      cudaFree(d);
      cudaMalloc(&d, need); // expected-warning {{varies}}
    }
    cudaMemcpy(d, h_batches[b], need, cudaMemcpyHostToDevice);
    normalize<<<(lens[b] + 255) / 256, 256>>>(d, lens[b]);
    cudaMemcpy(h_out, d, need, cudaMemcpyDeviceToHost);
    h_out += lens[b];
  }
  cudaFree(d);
}
