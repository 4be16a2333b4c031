// expected-no-diagnostics
// Batched inference with variable sequence lengths: each batch is copied as
// one whole buffer whose size changes from batch to batch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void gelu(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.5f * v[i] * (1.f + tanhf(0.79788456f * v[i]));
}

void infer(const float* h_tokens, const int* offsets, const int* lens, int nbatch, int dim,
           float* h_out) {
  int max_len = 0;
  for (int b = 0; b < nbatch; ++b)
    if (lens[b] > max_len) max_len = lens[b];
  float* d = nullptr;
  cudaMalloc(&d, (size_t)max_len * dim * sizeof(float));
  for (int b = 0; b < nbatch; ++b) {
    size_t bytes = (size_t)lens[b] * dim * sizeof(float);
    cudaMemcpy(d, h_tokens + (size_t)offsets[b] * dim, bytes, cudaMemcpyHostToDevice);
    gelu<<<(lens[b] * dim + 255) / 256, 256>>>(d, lens[b] * dim);
    cudaMemcpy(h_out + (size_t)offsets[b] * dim, d, bytes, cudaMemcpyDeviceToHost);
  }
  cudaFree(d);
}
