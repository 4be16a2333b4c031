// Driver API: cuMemFree twice on the same CUdeviceptr.
#include <cuda.h>

CUresult clear_buffer(size_t bytes, CUstream s) {
  CUdeviceptr d = 0;
  CUresult r = cuMemAlloc(&d, bytes); // expected-note {{allocated here with cuMemAlloc}}
  if (r != CUDA_SUCCESS)
    return r;
  r = cuMemsetD8Async(d, 0, bytes, s);
  if (r != CUDA_SUCCESS) {
    cuMemFree(d); // expected-note {{first freed here}}
  }
  cuStreamSynchronize(s);
  cuMemFree(d); // expected-warning {{'d' (device memory (driver API) from cuMemAlloc) is freed twice: cuMemFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return r;
}
