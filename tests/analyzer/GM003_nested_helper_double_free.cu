// The first release happens two helper layers down.
#include <cuda_runtime.h>

static void device_release(void* p) { cudaFree(p); }
static void release_buffer(float* p) { device_release(p); }

int twice(int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  release_buffer(d); // expected-note {{first freed here}}
  cudaDeviceSynchronize();
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: release_buffer already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return 0;
}
