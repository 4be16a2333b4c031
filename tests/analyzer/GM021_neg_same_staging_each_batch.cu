// expected-no-diagnostics
// Streaming pipeline: each iteration refills the same pinned staging buffer
// on the host and uploads it whole to the same device buffer.
#include <cuda_runtime.h>
#include <stdio.h>

int fill_staging(float* dst, int cap); // returns elements written, 0 at end

__global__ void consume(const float* v, float* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, v[i]);
}

float stream_sum(int cap) {
  float* h_stage = nullptr;
  float* d_stage = nullptr;
  float* d_sum = nullptr;
  cudaMallocHost(&h_stage, cap * sizeof(float));
  cudaMalloc(&d_stage, cap * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  cudaMemset(d_sum, 0, sizeof(float));
  int n;
  while ((n = fill_staging(h_stage, cap)) > 0) {
    cudaMemcpy(d_stage, h_stage, n * sizeof(float), cudaMemcpyHostToDevice);
    consume<<<(n + 255) / 256, 256>>>(d_stage, d_sum, n);
  }
  float sum = 0.f;
  cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_sum);
  cudaFree(d_stage);
  cudaFreeHost(h_stage);
  return sum;
}
