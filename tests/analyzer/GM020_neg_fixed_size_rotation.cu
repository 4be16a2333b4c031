// expected-no-diagnostics
// A history window of a fixed size: each iteration allocates a new window of
// the same size, copies the old one and frees it. Wasteful (GM010's business),
// but nothing grows, so there is no quadratic copying.
#include <cuda_runtime.h>
#include <stdio.h>

#define WINDOW 4096

__global__ void shift_in(float* win, float x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) win[WINDOW - 1] = x;
}

void track(const float* samples, int n) {
  float* win = nullptr;
  cudaMalloc(&win, WINDOW * sizeof(float));
  cudaMemset(win, 0, WINDOW * sizeof(float));
  for (int k = 0; k < n; ++k) {
    float* next = nullptr;
    cudaMalloc(&next, WINDOW * sizeof(float));
    cudaMemcpy(next, win + 1, (WINDOW - 1) * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(win);
    win = next;
    shift_in<<<1, 32>>>(win, samples[k]);
  }
  cudaFree(win);
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
