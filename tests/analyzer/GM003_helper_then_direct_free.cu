// A helper frees its parameter; the caller frees the same pointer again.
#include <cuda_runtime.h>

static void free_dev(float* p) {
  cudaFree(p);
}

int fill_ones(int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  cudaMemset(d, 0, n * sizeof(float));
  free_dev(d); // expected-note {{first freed here}}
  cudaDeviceSynchronize();
  cudaFree(d); // expected-warning {{GM003}}
  return 0;
}
