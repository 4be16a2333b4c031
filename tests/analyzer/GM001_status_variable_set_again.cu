// The status variable is set again between the copy's test and the test that keeps the buffer:
// when the copy succeeded but the synchronisation failed, the new buffer is neither kept nor
// freed.
#include <cuda.h>

struct DeviceVector {
  CUdeviceptr ptr;
  size_t size;
};

CUresult grow(DeviceVector *v, size_t n) {
  CUresult status;
  CUdeviceptr fresh = 0;
  if ((status = cuMemAlloc(&fresh, n)) == CUDA_SUCCESS) { // expected-warning {{'fresh' (device memory (driver API) from cuMemAlloc) is not freed on an error path: a return after a failed call leaves 'grow' without releasing it; call cuMemFree before returning}}
    if ((status = cuMemcpyDtoD(fresh, v->ptr, v->size)) == CUDA_SUCCESS)
      cuMemFree(v->ptr);
    else
      cuMemFree(fresh);
    status = cuCtxSynchronize();
    if (status == CUDA_SUCCESS) {
      v->ptr = fresh;
      v->size = n;
    }
  }
  return status; // expected-note {{this return after a failed call leaves without freeing 'fresh'}}
}
