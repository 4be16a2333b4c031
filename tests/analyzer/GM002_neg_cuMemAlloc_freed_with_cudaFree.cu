// expected-no-diagnostics
// Driver-API device memory released through the runtime API.
#include <cuda.h>
#include <cuda_runtime.h>

int driver_then_runtime(size_t bytes) {
  CUdeviceptr dp = 0;
  if (cuMemAlloc(&dp, bytes) != CUDA_SUCCESS)
    return -1;
  cudaMemset((void*)dp, 0, bytes);
  cudaDeviceSynchronize();
  cudaFree((void*)dp);
  return 0;
}
