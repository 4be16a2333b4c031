#include <cuda_runtime.h>

#include "batch.cuh"

__global__ void normalise(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] / 255.0f;
}

void process_batch(const float *host_batch, int n) {
  float *d_scratch;
  cudaMalloc(&d_scratch, n * sizeof(float)); // expected-warning {{cudaMalloc in 'process_batch' runs on every call, and 'process_batch' is called in a loop in}} expected-note@train.cu:10 {{'process_batch' is called in a loop here, in 'main'}} expected-note@train.cu:9 {{the loop}}
  cudaMemcpy(d_scratch, host_batch, n * sizeof(float), cudaMemcpyHostToDevice);
  normalise<<<(n + 255) / 256, 256>>>(d_scratch, n);
  cudaDeviceSynchronize();
  cudaFree(d_scratch);
}
