/* The real CUDA runtime functions the runtime calls. Linked into a program (gmemcc), they are the
 * program's own cudart, called directly. Preloaded (libgmemrt.so, GMEMRT_PRELOAD), the library
 * defines cudaMalloc and friends itself, so the real ones are found with dlsym(RTLD_NEXT): the
 * runtime's own probes must not land in its hooks, and the library needs no link to cudart.
 * Injected (libgmemrt_inject.so, GMEMRT_INJECT), they are the driver API's equivalents. */
#ifndef GMEMRT_REAL_H
#define GMEMRT_REAL_H

#include <cuda_runtime_api.h>

/* name, parameters, argument names. The functions only the hooks call (each hook's real call): */
#define GMEMRT_REAL_FOR_HOOKS(X)                                                                   \
  X(cudaMallocManaged, (void **p, size_t n, unsigned f), (p, n, f))                                \
  X(cudaMallocHost, (void **p, size_t n), (p, n))                                                  \
  X(cudaHostAlloc, (void **p, size_t n, unsigned f), (p, n, f))                                    \
  X(cudaMallocPitch, (void **p, size_t *pitch, size_t w, size_t h), (p, pitch, w, h))              \
  X(cudaMalloc3D, (struct cudaPitchedPtr * p, struct cudaExtent e), (p, e))                        \
  X(cudaMallocArray,                                                                               \
    (cudaArray_t * a, const struct cudaChannelFormatDesc *d, size_t w, size_t h, unsigned f),      \
    (a, d, w, h, f))                                                                               \
  X(cudaMalloc3DArray,                                                                             \
    (cudaArray_t * a, const struct cudaChannelFormatDesc *d, struct cudaExtent e, unsigned f),     \
    (a, d, e, f))                                                                                  \
  X(cudaMallocAsync, (void **p, size_t n, cudaStream_t s), (p, n, s))                              \
  X(cudaMallocFromPoolAsync, (void **p, size_t n, cudaMemPool_t m, cudaStream_t s), (p, n, m, s))  \
  X(cudaFreeHost, (void *p), (p))                                                                  \
  X(cudaFreeArray, (cudaArray_t a), (a))                                                           \
  X(cudaMallocMipmappedArray,                                                                      \
    (cudaMipmappedArray_t * a, const struct cudaChannelFormatDesc *d, struct cudaExtent e,         \
     unsigned n, unsigned f),                                                                      \
    (a, d, e, n, f))                                                                               \
  X(cudaFreeMipmappedArray, (cudaMipmappedArray_t a), (a))                                         \
  X(cudaFreeAsync, (void *p, cudaStream_t s), (p, s))                                              \
  X(cudaMemcpy, (void *d, const void *s, size_t n, enum cudaMemcpyKind k), (d, s, n, k))           \
  X(cudaMemcpyAsync, (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st),   \
    (d, s, n, k, st))

/* ... and those the runtime's own code calls too (probes, device, free memory, pools): */
#define GMEMRT_REAL_FOR_RUNTIME(X)                                                                 \
  X(cudaMalloc, (void **p, size_t n), (p, n))                                                      \
  X(cudaFree, (void *p), (p))                                                                      \
  X(cudaGetDevice, (int *d), (d))                                                                  \
  X(cudaGetDeviceCount, (int *n), (n))                                                             \
  X(cudaMemGetInfo, (size_t * f, size_t * t), (f, t))                                              \
  X(cudaDeviceGetDefaultMemPool, (cudaMemPool_t * m, int d), (m, d))                               \
  X(cudaMemPoolGetAttribute, (cudaMemPool_t m, enum cudaMemPoolAttr a, void *v), (m, a, v))

#define GMEMRT_REAL_FUNCTIONS(X) GMEMRT_REAL_FOR_HOOKS(X) GMEMRT_REAL_FOR_RUNTIME(X)

#if defined(GMEMRT_PRELOAD) || defined(GMEMRT_INJECT)
#define GMEMRT_REAL_DECLARE(name, params, args) cudaError_t gmemrt_real_##name params;
GMEMRT_REAL_FUNCTIONS(GMEMRT_REAL_DECLARE)
#undef GMEMRT_REAL_DECLARE
#define CUDA_REAL(name) gmemrt_real_##name
#else
#define CUDA_REAL(name) name
#endif

#endif
