/* The injected runtime's own CUDA calls (free memory, probes, pools), through the driver API:
 * the program may carry its cudart statically, out of reach (real.h). */
#include "real.h"
#include "hooks.h"

#include <cuda.h>
#include <stdint.h>

#define DRIVER_FN(name, params, sym)                                                               \
  static CUresult(*name) params;                                                                   \
  if (!name)                                                                                       \
    *(void **)&name = gmemrt_driver_sym(sym);                                                      \
  if (!name)                                                                                       \
    return cudaErrorNotSupported;

static cudaError_t from_cu(CUresult rc) {
  return rc == CUDA_SUCCESS               ? cudaSuccess
         : rc == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation
                                          : cudaErrorUnknown;
}

cudaError_t gmemrt_real_cudaMalloc(void **p, size_t n) {
  DRIVER_FN(alloc, (CUdeviceptr *, size_t), "cuMemAlloc_v2")
  CUdeviceptr d = 0;
  CUresult rc = alloc(&d, n);
  *p = (void *)(uintptr_t)d;
  return from_cu(rc);
}
cudaError_t gmemrt_real_cudaFree(void *p) {
  DRIVER_FN(release, (CUdeviceptr), "cuMemFree_v2")
  return from_cu(release((CUdeviceptr)(uintptr_t)p));
}
cudaError_t gmemrt_real_cudaGetDevice(int *d) {
  DRIVER_FN(get, (CUdevice *), "cuCtxGetDevice")
  CUdevice dev = 0;
  CUresult rc = get(&dev);
  *d = rc == CUDA_SUCCESS ? (int)dev : 0;
  return from_cu(rc);
}
cudaError_t gmemrt_real_cudaGetDeviceCount(int *n) {
  DRIVER_FN(count, (int *), "cuDeviceGetCount")
  return from_cu(count(n));
}
cudaError_t gmemrt_real_cudaMemGetInfo(size_t *f, size_t *t) {
  DRIVER_FN(info, (size_t *, size_t *), "cuMemGetInfo_v2")
  return from_cu(info(f, t));
}
cudaError_t gmemrt_real_cudaDeviceGetDefaultMemPool(cudaMemPool_t *m, int d) {
  DRIVER_FN(get, (CUmemoryPool *, CUdevice), "cuDeviceGetDefaultMemPool")
  return from_cu(get((CUmemoryPool *)m, (CUdevice)d));
}
cudaError_t gmemrt_real_cudaMemPoolGetAttribute(cudaMemPool_t m, enum cudaMemPoolAttr a, void *v) {
  /* the runtime's pool attributes have the driver's values */
  DRIVER_FN(get, (CUmemoryPool, CUmemPool_attribute, void *), "cuMemPoolGetAttribute")
  return from_cu(get((CUmemoryPool)m, (CUmemPool_attribute)a, v));
}
/* The hooks gmem_forced.h routes to are not used here: the program calls the real functions, and
 * the runtime's own calls (GMEMRT_REAL_FOR_RUNTIME) are the driver's, above. */
#define NOT_HERE(name, params, args)                                                               \
  cudaError_t gmemrt_real_##name params {                                                          \
    return cudaErrorNotSupported;                                                                  \
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
GMEMRT_REAL_FOR_HOOKS(NOT_HERE)
#pragma GCC diagnostic pop
