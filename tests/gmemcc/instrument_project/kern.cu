#include <cuda_runtime.h>
int kern_scratch(void) {
  void *d = nullptr;
  cudaError_t e = cudaMalloc(&d, 1024);
  if (e == cudaSuccess)
    cudaFree(d);
  return (int)e;
}
