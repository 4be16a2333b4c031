/* Names for a failed allocation's result, from the CUDA libraries themselves: the telemetry says
 * cudaErrorMemoryAllocation or cudaErrorNoDevice, and gmemlint need not know the codes. Asked
 * only when a call failed, never on the way of a successful one. */
#include "hooks.h"
#include "record.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

typedef const char *(*runtime_name_fn)(cudaError_t);
typedef CUresult (*driver_name_fn)(CUresult, const char **);

/* The runtime's cudaGetErrorName: the program's own cudart in a gmemcc build; preloaded or
 * injected, the shared cudart's when one is loaded (a static cudart's is not exported). */
static runtime_name_fn runtime_namer(void) {
#if defined(GMEMRT_PRELOAD) || defined(GMEMRT_INJECT)
  static runtime_name_fn fn;
  static int tried;
  if (!__atomic_exchange_n(&tried, 1, __ATOMIC_ACQ_REL))
    __atomic_store_n((void **)&fn, dlsym(RTLD_DEFAULT, "cudaGetErrorName"), __ATOMIC_RELEASE);
  return (runtime_name_fn)__atomic_load_n((void **)&fn, __ATOMIC_ACQUIRE);
#else
  return cudaGetErrorName;
#endif
}

const char *gmemrt_error_name(int error, int driver_api) {
  if (driver_api) {
    driver_name_fn fn = (driver_name_fn)gmemrt_driver_sym("cuGetErrorName");
    const char *name = NULL;
    return fn && fn((CUresult)error, &name) == CUDA_SUCCESS ? name : NULL;
  }
  runtime_name_fn fn = runtime_namer();
  if (fn)
    return fn((cudaError_t)error);
  /* the one result the runtime itself acts on (an out-of-memory event) has its name anyway */
  return error == cudaErrorMemoryAllocation ? "cudaErrorMemoryAllocation" : NULL;
}
