// The error branch frees the buffer and then falls through to the common
// cleanup, which frees it again.
#include <cuda_runtime.h>
#include <stdio.h>

int transform(float* h, int n) {
  int rc = 0;
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  if (cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
    fprintf(stderr, "upload failed\n");
    cudaFree(d); // expected-note {{first freed here}}
    rc = -1;
  } else {
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return rc;
}
