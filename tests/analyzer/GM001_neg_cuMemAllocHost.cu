// expected-no-diagnostics
// Driver-API pinned host memory paired with cuMemFreeHost.
#include <cuda.h>
#include <string.h>

CUresult upload(CUdeviceptr dst, const void* src, size_t bytes, CUstream s) {
  void* staging = nullptr;
  CUresult r = cuMemAllocHost(&staging, bytes);
  if (r != CUDA_SUCCESS)
    return r;
  memcpy(staging, src, bytes);
  r = cuMemcpyHtoDAsync(dst, staging, bytes, s);
  if (r == CUDA_SUCCESS)
    r = cuStreamSynchronize(s);
  cuMemFreeHost(staging);
  return r;
}
