// expected-no-diagnostics
// A status variable assigned inside a comparison (`(status = cuMemcpyDtoD(..)) == CUDA_SUCCESS`)
// is what a later `if (status == CUDA_SUCCESS)` tests: the new buffer is freed when the copy
// failed and kept in the object when it succeeded, so it is released or kept on every path.
#include <cuda.h>

struct DeviceVector {
  CUdeviceptr ptr;
  size_t size;
};

CUresult grow(DeviceVector *v, size_t n) {
  CUresult status;
  CUdeviceptr fresh = 0;
  if (n <= v->size)
    return CUDA_SUCCESS;
  if ((status = cuMemAlloc(&fresh, n)) == CUDA_SUCCESS) {
    if (v->size > 0) {
      if ((status = cuMemcpyDtoD(fresh, v->ptr, v->size)) == CUDA_SUCCESS)
        cuMemFree(v->ptr);
      else
        cuMemFree(fresh);
    }
    if (status == CUDA_SUCCESS) {
      v->ptr = fresh;
      v->size = n;
    }
  }
  return status;
}
