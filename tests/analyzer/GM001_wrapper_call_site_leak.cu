// A same-file wrapper returns a fresh device allocation; its caller leaks it.
// The wrapper itself is fine (ownership is returned).
#include <cuda_runtime.h>
#include <stdio.h>

static float* alloc_dev(size_t n) {
  float* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    return nullptr;
  return p;
}

__global__ void iota(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = (float)i;
}

float last_element(int n) {
  float* d = alloc_dev(n); // expected-warning {{'d' (device memory from alloc_dev) is not freed on every path: a return leaves 'last_element' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  if (!d)
    return -1.0f;
  iota<<<(n + 255) / 256, 256>>>(d, n);
  float h = 0.0f;
  cudaMemcpy(&h, d + (n - 1), sizeof(float), cudaMemcpyDeviceToHost);
  return h; // expected-note {{this return leaves without freeing 'd'}}
}
