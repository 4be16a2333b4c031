// expected-no-diagnostics
// Allocations wrapped in do { ... } while (0) macros are not in a loop.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

#define DEVICE_ALLOC(ptr, bytes)                                        \
  do {                                                                  \
    cudaMalloc((void**)&(ptr), (bytes));                                \
    cudaMemset((ptr), 0, (bytes));                                      \
  } while (0)

__global__ void bump(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i]++;
}

int main() {
  const int n = 1 << 16;
  int* a = nullptr;
  int* b = nullptr;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(int)));
  DEVICE_ALLOC(b, n * sizeof(int));
  bump<<<n / 256, 256>>>(a, n);
  bump<<<n / 256, 256>>>(b, n);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  return 0;
}
