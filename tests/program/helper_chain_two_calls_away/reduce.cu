#include <cuda_runtime.h>

#include "steps.cuh"

__global__ void partial_sums(const float *x, size_t n, float *out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, x[i]);
}

float reduce_sum(const float *d_values, size_t n) {
  float *d_total;
  float total = 0;
  cudaMalloc(&d_total, sizeof(float)); // expected-warning {{cudaMalloc in 'reduce_sum' runs on every call, and 'reduce_sum' is reached on every iteration of a loop in}} expected-note@main.cu:11 {{'train_step' is called in a loop here, in 'main'}} expected-note@main.cu:10 {{the loop}} expected-note@step.cu:15 {{'train_step' calls 'reduce_sum' on every call}}
  cudaMemset(d_total, 0, sizeof(float));
  partial_sums<<<(n + 255) / 256, 256>>>(d_values, n, d_total);
  cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_total);
  return total;
}
