/* The preloaded library's way to the real CUDA runtime: LD_PRELOAD=libgmemrt.so puts this
 * library's cudaMalloc and friends ahead of the program's shared cudart, so each real function
 * is the next definition after this library's own (dlsym(RTLD_NEXT)), looked up once. */
#include "internal.h"
#include "real.h"

#include <dlfcn.h>

static void *next_symbol(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    static int warned;
    if (!__atomic_fetch_add(&warned, 1, __ATOMIC_RELAXED))
      gmemrt_warn("%s not found after libgmemrt.so (is the program linked with -cudart "
                  "shared?); the call fails with cudaErrorNotSupported",
                  name);
  }
  return f;
}

/* Every thread that races on the first lookup stores the same pointer. */
#define DEFINE_REAL(name, params, args)                                                            \
  cudaError_t gmemrt_real_##name params {                                                          \
    static cudaError_t(*real) params;                                                              \
    if (!real)                                                                                     \
      *(void **)&real = next_symbol(#name);                                                        \
    return real ? real args : cudaErrorNotSupported;                                               \
  }
GMEMRT_REAL_FUNCTIONS(DEFINE_REAL)
