// A case frees and then falls through into a case that frees again.
#include <cuda_runtime.h>

int by_level(int level, int n) {
  int* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  switch (level) {
  case 1:
    cudaMemset(d, 0, sizeof(int));
    cudaFree(d); // expected-note {{first freed here}}
    [[fallthrough]];
  case 0:
    cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
    break;
  default:
    cudaFree(d);
    break;
  }
  return 0;
}
