// nvcc's version macros (__CUDACC_VER_MAJOR__, _MINOR__, _BUILD__), which clang does not define:
// sources test them in #if and static_assert; gmemlint defines them from the toolkit it parses.
#include <cuda_runtime.h>

static_assert(__CUDACC_VER_MAJOR__ >= 11, "needs CUDA 11 or newer");
#if __CUDACC_VER_MAJOR__ * 100 + __CUDACC_VER_MINOR__ * 10 < 1100 || !defined(__CUDACC_VER_BUILD__)
#error "the version macros must be integers in #if"
#endif

int upload(const float *host, int n) {
  float *dev = nullptr;
  if (cudaMalloc(&dev, n * sizeof(float)) != cudaSuccess) // expected-warning {{'dev' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'upload' without releasing it; call cudaFree before returning}}
    return -1;
  if (cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
    return -2; // expected-note {{this return after a failed call leaves without freeing 'dev'}}
  cudaFree(dev);
  return 0;
}
