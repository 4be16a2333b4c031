/* gmem_forced.h: the header gmemcc force-includes (-include) into every translation unit of an
 * instrumented build. It routes the CUDA allocation, free and copy calls written in the user's
 * sources to libgmemrt together with their site (file, line, column), and changes nothing else:
 * each wrapper calls the real function and returns exactly what it returned.
 *
 * Function-like macros only rewrite calls (`cudaMalloc(&p, n)`), not a function's name used as
 * a value (`&cudaMalloc`). Device code (__CUDA_ARCH__) is left alone. */
#ifndef GMEMLINT_GMEM_FORCED_H
#define GMEMLINT_GMEM_FORCED_H

/* The driver API, declared before the macros below exist. gmemcc includes the toolkit's cuda.h
 * by its path before this header (-include), so that a project header named cuda.h on the -I
 * path is not taken for it: the toolkit's guard, __cuda_cuda_h__, then skips this include. */
#ifndef __cuda_cuda_h__
#include <cuda.h>
#endif
#ifndef __cuda_cuda_h__
#error "gmem_forced.h: the <cuda.h> found first on the include path is not the CUDA toolkit's (a project header of that name?): include the toolkit's before this header, as gmemcc does: -include <CUDA>/include/cuda.h"
#endif
#include <cuda_runtime.h> /* likewise */
#include <stddef.h>

#include "gmemrt.h"

/* Each translation unit compiled with this header names itself in the gmemrt_units section of
 * its object, and so of the program or library linked from it: `gmemcc --gmem-check` lists them
 * to say what a binary routes through the runtime. __BASE_FILE__ is the compiled source (nvcc
 * preprocesses the .cu itself); device compiles have nothing to record. */
#if defined(__GNUC__) && defined(__BASE_FILE__) && !defined(__CUDA_ARCH__) && \
    !defined(GMEMRT_BUILDING)
__attribute__((used, section("gmemrt_units"))) static const char gmemrt_this_unit[] =
    __BASE_FILE__;
#endif

#if defined(__has_builtin)
#if __has_builtin(__builtin_COLUMN)
#define GMEMRT_COLUMN __builtin_COLUMN()
#endif
#endif
#ifndef GMEMRT_COLUMN
#define GMEMRT_COLUMN 0 /* no column: sites join on file and line */
#endif
#define GMEMRT_SITE __FILE__, __LINE__, GMEMRT_COLUMN

#ifdef __cplusplus
extern "C" {
#endif

GMEMRT_API cudaError_t gmemrt_cudaMalloc(const char *file, int line, int col, void **ptr,
                                         size_t size);
GMEMRT_API cudaError_t gmemrt_cudaMallocManaged(const char *file, int line, int col, void **ptr,
                                                size_t size, unsigned int flags);
GMEMRT_API cudaError_t gmemrt_cudaMallocHost(const char *file, int line, int col, void **ptr,
                                             size_t size);
GMEMRT_API cudaError_t gmemrt_cudaHostAlloc(const char *file, int line, int col, void **ptr,
                                            size_t size, unsigned int flags);
GMEMRT_API cudaError_t gmemrt_cudaMallocPitch(const char *file, int line, int col, void **ptr,
                                              size_t *pitch, size_t width, size_t height);
GMEMRT_API cudaError_t gmemrt_cudaMallocAsync(const char *file, int line, int col, void **ptr,
                                              size_t size, cudaStream_t stream);
GMEMRT_API cudaError_t gmemrt_cudaMallocFromPoolAsync(const char *file, int line, int col,
                                                      void **ptr, size_t size, cudaMemPool_t pool,
                                                      cudaStream_t stream);
GMEMRT_API cudaError_t gmemrt_cudaMalloc3D(const char *file, int line, int col,
                                           struct cudaPitchedPtr *pp, struct cudaExtent extent);
GMEMRT_API cudaError_t gmemrt_cudaMallocArray(const char *file, int line, int col,
                                              cudaArray_t *array,
                                              const struct cudaChannelFormatDesc *desc,
                                              size_t width, size_t height, unsigned int flags);
GMEMRT_API cudaError_t gmemrt_cudaMalloc3DArray(const char *file, int line, int col,
                                                cudaArray_t *array,
                                                const struct cudaChannelFormatDesc *desc,
                                                struct cudaExtent extent, unsigned int flags);
GMEMRT_API cudaError_t gmemrt_cudaFreeArray(const char *file, int line, int col, cudaArray_t array);
GMEMRT_API cudaError_t gmemrt_cudaFree(const char *file, int line, int col, void *ptr);
GMEMRT_API cudaError_t gmemrt_cudaFreeHost(const char *file, int line, int col, void *ptr);
GMEMRT_API cudaError_t gmemrt_cudaFreeAsync(const char *file, int line, int col, void *ptr,
                                            cudaStream_t stream);
GMEMRT_API cudaError_t gmemrt_cudaMemcpy(const char *file, int line, int col, void *dst,
                                         const void *src, size_t count, enum cudaMemcpyKind kind);
GMEMRT_API cudaError_t gmemrt_cudaMemcpyAsync(const char *file, int line, int col, void *dst,
                                              const void *src, size_t count,
                                              enum cudaMemcpyKind kind, cudaStream_t stream);
GMEMRT_API const void *gmemrt_note_prefetch(const char *file, int line, int col, const void *ptr);
GMEMRT_API CUresult gmemrt_cuMemAlloc(const char *file, int line, int col, CUdeviceptr *dptr,
                                      size_t size);
GMEMRT_API CUresult gmemrt_cuMemAllocManaged(const char *file, int line, int col, CUdeviceptr *dptr,
                                             size_t size, unsigned int flags);
GMEMRT_API CUresult gmemrt_cuMemAllocHost(const char *file, int line, int col, void **pp,
                                          size_t size);
GMEMRT_API CUresult gmemrt_cuMemFree(const char *file, int line, int col, CUdeviceptr dptr);
GMEMRT_API CUresult gmemrt_cuMemFreeHost(const char *file, int line, int col, void *p);
GMEMRT_API CUresult gmemrt_cuMemAllocPitch(const char *file, int line, int col, CUdeviceptr *dptr,
                                           size_t *pitch, size_t width, size_t height,
                                           unsigned int elem);
GMEMRT_API CUresult gmemrt_cuMemAllocAsync(const char *file, int line, int col, CUdeviceptr *dptr,
                                           size_t size, CUstream stream);
GMEMRT_API CUresult gmemrt_cuMemAllocFromPoolAsync(const char *file, int line, int col,
                                                   CUdeviceptr *dptr, size_t size,
                                                   CUmemoryPool pool, CUstream stream);
GMEMRT_API CUresult gmemrt_cuMemHostAlloc(const char *file, int line, int col, void **pp,
                                          size_t size, unsigned int flags);
GMEMRT_API CUresult gmemrt_cuMemCreate(const char *file, int line, int col,
                                       CUmemGenericAllocationHandle *handle, size_t size,
                                       const CUmemAllocationProp *prop, unsigned long long flags);
GMEMRT_API CUresult gmemrt_cuMemFreeAsync(const char *file, int line, int col, CUdeviceptr dptr,
                                          CUstream stream);
GMEMRT_API CUresult gmemrt_cuMemRelease(const char *file, int line, int col,
                                        CUmemGenericAllocationHandle handle);
GMEMRT_API cudaError_t gmemrt_cudaMallocMipmappedArray(const char *file, int line, int col,
                                                       cudaMipmappedArray_t *array,
                                                       const struct cudaChannelFormatDesc *desc,
                                                       struct cudaExtent extent,
                                                       unsigned int levels, unsigned int flags);
GMEMRT_API cudaError_t gmemrt_cudaFreeMipmappedArray(const char *file, int line, int col,
                                                     cudaMipmappedArray_t array);

#ifdef __cplusplus
}

/* The C++ conveniences of cuda_runtime.h: typed pointers and default arguments. Always inlined,
 * so that the runtime's stacks start in the caller, not in this header. */
#define GMEMRT_WRAPPER static inline __attribute__((always_inline))
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMalloc(const char *f, int l, int c, T **p, size_t n) {
  return gmemrt_cudaMalloc(f, l, c, (void **)(void *)p, n);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocManaged(const char *f, int l, int c, T **p, size_t n,
                                                   unsigned int flags = cudaMemAttachGlobal) {
  return gmemrt_cudaMallocManaged(f, l, c, (void **)(void *)p, n, flags);
}
template <class T>
GMEMRT_WRAPPER CUresult gmemrt_cuMemAllocHost(const char *f, int l, int c, T **p, size_t n) {
  return gmemrt_cuMemAllocHost(f, l, c, (void **)(void *)p, n);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocHost(const char *f, int l, int c, T **p, size_t n) {
  return gmemrt_cudaMallocHost(f, l, c, (void **)(void *)p, n);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocHost(const char *f, int l, int c, T **p, size_t n,
                                                unsigned int flags) {
  return gmemrt_cudaHostAlloc(f, l, c, (void **)(void *)p, n, flags);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaHostAlloc(const char *f, int l, int c, T **p, size_t n,
                                               unsigned int flags) {
  return gmemrt_cudaHostAlloc(f, l, c, (void **)(void *)p, n, flags);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocPitch(const char *f, int l, int c, T **p, size_t *pitch,
                                                 size_t w, size_t h) {
  return gmemrt_cudaMallocPitch(f, l, c, (void **)(void *)p, pitch, w, h);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocAsync(const char *f, int l, int c, T **p, size_t n,
                                                 cudaStream_t s) {
  return gmemrt_cudaMallocAsync(f, l, c, (void **)(void *)p, n, s);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocAsync(const char *f, int l, int c, T **p, size_t n,
                                                 cudaMemPool_t pool, cudaStream_t s) {
  return gmemrt_cudaMallocFromPoolAsync(f, l, c, (void **)(void *)p, n, pool, s);
}
template <class T>
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocFromPoolAsync(const char *f, int l, int c, T **p,
                                                         size_t n, cudaMemPool_t pool,
                                                         cudaStream_t s) {
  return gmemrt_cudaMallocFromPoolAsync(f, l, c, (void **)(void *)p, n, pool, s);
}
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMemcpyAsync(const char *f, int l, int c, void *dst,
                                                 const void *src, size_t n,
                                                 enum cudaMemcpyKind kind) {
  return gmemrt_cudaMemcpyAsync(f, l, c, dst, src, n, kind, 0);
}
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocArray(const char *f, int l, int c, cudaArray_t *a,
                                                 const struct cudaChannelFormatDesc *d, size_t w,
                                                 size_t h = 0) {
  return gmemrt_cudaMallocArray(f, l, c, a, d, w, h, 0);
}
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMalloc3DArray(const char *f, int l, int c, cudaArray_t *a,
                                                   const struct cudaChannelFormatDesc *d,
                                                   struct cudaExtent e) {
  return gmemrt_cudaMalloc3DArray(f, l, c, a, d, e, 0);
}
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocMipmappedArray(const char *f, int l, int c,
                                                          cudaMipmappedArray_t *a,
                                                          const struct cudaChannelFormatDesc *d,
                                                          struct cudaExtent e, unsigned int n) {
  return gmemrt_cudaMallocMipmappedArray(f, l, c, a, d, e, n, 0);
}
template <class T>
GMEMRT_WRAPPER CUresult gmemrt_cuMemHostAlloc(const char *f, int l, int c, T **p, size_t n,
                                             unsigned int flags) {
  return gmemrt_cuMemHostAlloc(f, l, c, (void **)(void *)p, n, flags);
}
GMEMRT_WRAPPER cudaError_t gmemrt_cudaMallocManaged(const char *f, int l, int c, void **p,
                                                   size_t n) {
  return gmemrt_cudaMallocManaged(f, l, c, p, n, cudaMemAttachGlobal);
}
#endif

#if !defined(__CUDA_ARCH__) && !defined(GMEMRT_BUILDING)
#define cudaMalloc(...) gmemrt_cudaMalloc(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocManaged(...) gmemrt_cudaMallocManaged(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocHost(...) gmemrt_cudaMallocHost(GMEMRT_SITE, __VA_ARGS__)
#define cudaHostAlloc(...) gmemrt_cudaHostAlloc(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocPitch(...) gmemrt_cudaMallocPitch(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocAsync(...) gmemrt_cudaMallocAsync(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocFromPoolAsync(...) gmemrt_cudaMallocFromPoolAsync(GMEMRT_SITE, __VA_ARGS__)
#define cudaFree(...) gmemrt_cudaFree(GMEMRT_SITE, __VA_ARGS__)
#define cudaMalloc3D(...) gmemrt_cudaMalloc3D(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocArray(...) gmemrt_cudaMallocArray(GMEMRT_SITE, __VA_ARGS__)
#define cudaMalloc3DArray(...) gmemrt_cudaMalloc3DArray(GMEMRT_SITE, __VA_ARGS__)
#define cudaFreeArray(...) gmemrt_cudaFreeArray(GMEMRT_SITE, __VA_ARGS__)
#define cudaFreeHost(...) gmemrt_cudaFreeHost(GMEMRT_SITE, __VA_ARGS__)
#define cudaFreeAsync(...) gmemrt_cudaFreeAsync(GMEMRT_SITE, __VA_ARGS__)
#define cudaMemcpy(...) gmemrt_cudaMemcpy(GMEMRT_SITE, __VA_ARGS__)
/* cuda.h maps cuMemAlloc to cuMemAlloc_v2 (and so on): hook the versioned names it expands to. */
#define cuMemAlloc_v2(...) gmemrt_cuMemAlloc(GMEMRT_SITE, __VA_ARGS__)
#define cuMemAllocHost_v2(...) gmemrt_cuMemAllocHost(GMEMRT_SITE, __VA_ARGS__)
#define cuMemFree_v2(...) gmemrt_cuMemFree(GMEMRT_SITE, __VA_ARGS__)
#define cuMemAllocManaged(...) gmemrt_cuMemAllocManaged(GMEMRT_SITE, __VA_ARGS__)
#define cuMemFreeHost(...) gmemrt_cuMemFreeHost(GMEMRT_SITE, __VA_ARGS__)
#define cuMemAllocPitch_v2(...) gmemrt_cuMemAllocPitch(GMEMRT_SITE, __VA_ARGS__)
#define cuMemAllocFromPoolAsync(...) gmemrt_cuMemAllocFromPoolAsync(GMEMRT_SITE, __VA_ARGS__)
#define cuMemHostAlloc(...) gmemrt_cuMemHostAlloc(GMEMRT_SITE, __VA_ARGS__)
#define cuMemCreate(...) gmemrt_cuMemCreate(GMEMRT_SITE, __VA_ARGS__)
#define cuMemRelease(...) gmemrt_cuMemRelease(GMEMRT_SITE, __VA_ARGS__)
#define cudaMallocMipmappedArray(...) gmemrt_cudaMallocMipmappedArray(GMEMRT_SITE, __VA_ARGS__)
#define cudaFreeMipmappedArray(...) gmemrt_cudaFreeMipmappedArray(GMEMRT_SITE, __VA_ARGS__)
/* Per-thread default stream builds define these names as macros already: leave those alone. */
#ifndef cudaMemcpyAsync
#define cudaMemcpyAsync(...) gmemrt_cudaMemcpyAsync(GMEMRT_SITE, __VA_ARGS__)
#endif
#ifndef cuMemAllocAsync
#define cuMemAllocAsync(...) gmemrt_cuMemAllocAsync(GMEMRT_SITE, __VA_ARGS__)
#endif
#ifndef cuMemFreeAsync
#define cuMemFreeAsync(...) gmemrt_cuMemFreeAsync(GMEMRT_SITE, __VA_ARGS__)
#endif
#ifndef cudaMemPrefetchAsync
#define cudaMemPrefetchAsync(ptr, ...)                                                             \
  cudaMemPrefetchAsync(gmemrt_note_prefetch(GMEMRT_SITE, (ptr)), __VA_ARGS__)
#endif
#endif

#endif
