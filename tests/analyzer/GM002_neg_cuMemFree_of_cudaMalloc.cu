// expected-no-diagnostics
// Runtime and driver device memory are interchangeable: cuMemFree releases
// memory from cudaMalloc.
#include <cuda.h>
#include <cuda_runtime.h>

int interop(size_t bytes) {
  void* d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess)
    return -1;
  CUdeviceptr dp = (CUdeviceptr)d;
  cuMemsetD8(dp, 0, bytes);
  cuMemFree((CUdeviceptr)d);
  return 0;
}
