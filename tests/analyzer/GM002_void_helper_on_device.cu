// A void* release helper that calls free() is applied to device memory.
#include <cuda_runtime.h>
#include <stdlib.h>

static void host_release(void* p) {
  free(p);
}

int scratch(int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  cudaMemset(d, 0, n * sizeof(float));
  host_release(d); // expected-warning {{'d' (device memory from cudaMalloc) is released with host_release (which calls free), which frees host heap memory; use cudaFree [GM002 mismatched-free]}}
  return 0;
}
