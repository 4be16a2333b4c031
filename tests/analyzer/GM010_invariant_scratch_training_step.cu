// Training loop: a scratch buffer of a fixed size is cudaMalloc'ed and freed
// on every step. The size never changes, so the allocation can be hoisted.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void forward(const float* w, const float* x, float* scratch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) scratch[i] = w[i] * x[i];
}

__global__ void backward(float* w, const float* scratch, float lr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * scratch[i];
}

void train(float* d_w, const float* d_x, int n, int steps) {
  const size_t bytes = (size_t)n * sizeof(float);
  dim3 block(256), grid((n + 255) / 256);
  for (int step = 0; step < steps; ++step) { // expected-note {{the loop}}
    float* d_scratch = nullptr;
    cudaMalloc(&d_scratch, bytes); // expected-warning {{loop-invariant}}
    forward<<<grid, block>>>(d_w, d_x, d_scratch, n);
    backward<<<grid, block>>>(d_w, d_scratch, 0.01f, n);
    cudaDeviceSynchronize();
    cudaFree(d_scratch);
  }
}
