// The same device buffer released twice in a row.
#include <cuda_runtime.h>

__global__ void relu(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] < 0.f) v[i] = 0.f;
}

void relu_inplace(float* h, int n) {
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float)); // expected-note {{allocated here with cudaMalloc}}
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  relu<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d); // expected-note {{first freed here}}
  cudaDeviceSynchronize();
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}
