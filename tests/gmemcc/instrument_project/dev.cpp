#include <cuda_runtime.h>
extern "C" int dev_scratch(void) {
  void *d = nullptr;
  cudaError_t e = cudaMalloc(&d, 128);
  if (e == cudaSuccess)
    cudaFree(d);
  return (int)e;
}
