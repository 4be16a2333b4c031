#include <cuda_runtime.h>

#include "buffers.cuh"

__global__ void scale(float *x, float a, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

// Not main: memory main holds when it returns is GM005's (off by default); a function that returns
// to its caller leaks it for GM001.
int run() {
  const size_t n = 1 << 20;
  float *weights = device_buffer(n);
  float *gradients = device_buffer(n); // expected-warning {{'gradients' (device memory from device_buffer) is not freed on every path: a return leaves 'run' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  float *host_copy;
  pinned_buffer(&host_copy, n);
  scale<<<(n + 255) / 256, 256>>>(weights, 0.5f, n);
  scale<<<(n + 255) / 256, 256>>>(gradients, 2.0f, n);
  cudaMemcpy(host_copy, gradients, n * sizeof(float), cudaMemcpyDeviceToHost);
  release_buffer(weights);
  cudaFreeHost(host_copy);
  return 0; // expected-note {{this return leaves without freeing 'gradients'}}
}

int main() { return run(); }
