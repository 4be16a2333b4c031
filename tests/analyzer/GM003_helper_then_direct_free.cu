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
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: free_dev already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return 0;
}
