// expected-no-diagnostics
// Release helpers that take void* and forward to another helper.
#include <cuda_runtime.h>

static void device_release(void* p) {
  cudaFree(p);
}

static void release_all(float* a, float* b) {
  device_release(a);
  device_release(b);
}

int pair(int n) {
  float* a = nullptr;
  float* b = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess)
    return -1;
  if (cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) {
    device_release(a);
    return -1;
  }
  cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
  release_all(a, b);
  return 0;
}
