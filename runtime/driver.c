/* Driver-API hooks (cuMemAlloc and friends). The real functions are found with dlsym when first
 * needed, so the runtime adds no link dependency on libcuda: a program that calls the driver API
 * links it anyway. */
#include "hooks.h"
#include "internal.h"

#include <cuda.h>
#include <dlfcn.h>

typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*alloc_managed_fn)(CUdeviceptr *, size_t, unsigned int);
typedef CUresult (*alloc_host_fn)(void **, size_t);

/* A driver function: from the program's own symbols, else from libcuda.so.1 itself (a linker
 * with --as-needed drops -lcuda when the hooks are the only callers). */
void *gmemrt_driver_sym(const char *sym) {
#ifdef GMEMRT_PRELOAD
  void *f = dlsym(RTLD_NEXT, sym); /* the library defines these names itself */
#else
  void *f = dlsym(RTLD_DEFAULT, sym);
#endif
  if (!f) {
    static void *libcuda;
    static int tried; /* a failed dlopen is not retried on every call */
    if (!libcuda && !__atomic_exchange_n(&tried, 1, __ATOMIC_ACQ_REL))
      libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    void *handle = __atomic_load_n(&libcuda, __ATOMIC_ACQUIRE);
    f = handle ? dlsym(handle, sym) : NULL;
  }
  return f;
}

/* Looks a driver function up once; the pointer is written before it is used, and every thread
 * that races here writes the same value. */
#define REAL(type, name, sym)                                                                      \
  static type name;                                                                                \
  if (!name)                                                                                       \
    *(void **)&name = gmemrt_driver_sym(sym);

static CUresult missing(const char *sym) {
  static int warned;
  if (!warned++)
    gmemrt_warn("%s not found in the program; the call fails with CUDA_ERROR_NOT_FOUND", sym);
  return CUDA_ERROR_NOT_FOUND;
}

static CUresult alloc_done(const gmemrt_where *w, const char *api, int family, CUresult rc,
                           void *ptr, uint64_t size, uint64_t t0) {
  gmemrt_after_alloc(w, api, family, (int)rc, 1, rc == CUDA_SUCCESS ? ptr : NULL, size, t0);
  return rc;
}

static CUresult hook_cuMemAlloc(const gmemrt_where *w, CUdeviceptr *dptr, size_t size) {
  REAL(alloc_fn, real, "cuMemAlloc_v2")
  if (!real)
    return missing("cuMemAlloc_v2");
  if (!gmemrt_hooks_enabled())
    return real(dptr, size);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(dptr, size);
  return alloc_done(w, "cuMemAlloc", FAM_CU_DEVICE, rc,
                    rc == CUDA_SUCCESS ? (void *)(uintptr_t)*dptr : NULL, size, t0);
}

static CUresult hook_cuMemAllocManaged(const gmemrt_where *w, CUdeviceptr *dptr, size_t size,
                                       unsigned int flags) {
  REAL(alloc_managed_fn, real, "cuMemAllocManaged")
  if (!real)
    return missing("cuMemAllocManaged");
  if (!gmemrt_hooks_enabled())
    return real(dptr, size, flags);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(dptr, size, flags);
  return alloc_done(w, "cuMemAllocManaged", FAM_CU_MANAGED, rc,
                    rc == CUDA_SUCCESS ? (void *)(uintptr_t)*dptr : NULL, size, t0);
}

static CUresult hook_cuMemAllocHost(const gmemrt_where *w, void **pp, size_t size) {
  REAL(alloc_host_fn, real, "cuMemAllocHost_v2")
  if (!real)
    return missing("cuMemAllocHost_v2");
  if (!gmemrt_hooks_enabled())
    return real(pp, size);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(pp, size);
  return alloc_done(w, "cuMemAllocHost", FAM_CU_HOST, rc, rc == CUDA_SUCCESS ? *pp : NULL, size,
                    t0);
}

typedef CUresult (*free_fn)(CUdeviceptr);
typedef CUresult (*free_host_fn)(void *);

static CUresult hook_cuMemFree(const gmemrt_where *w, CUdeviceptr dptr) {
  REAL(free_fn, real, "cuMemFree_v2")
  if (!real)
    return missing("cuMemFree_v2");
  if (!gmemrt_hooks_enabled())
    return real(dptr);
  gmemrt_free_in_flight f;
  gmemrt_before_free(w, "cuMemFree", FREE_CU, (void *)(uintptr_t)dptr, &f);
  CUresult rc = real(dptr);
  gmemrt_after_free(&f, rc == CUDA_SUCCESS);
  return rc;
}

static CUresult hook_cuMemFreeHost(const gmemrt_where *w, void *p) {
  REAL(free_host_fn, real, "cuMemFreeHost")
  if (!real)
    return missing("cuMemFreeHost");
  if (!gmemrt_hooks_enabled())
    return real(p);
  gmemrt_free_in_flight f;
  gmemrt_before_free(w, "cuMemFreeHost", FREE_CU_HOST, p, &f);
  CUresult rc = real(p);
  gmemrt_after_free(&f, rc == CUDA_SUCCESS);
  return rc;
}

typedef CUresult (*alloc_pitch_fn)(CUdeviceptr *, size_t *, size_t, size_t, unsigned int);
typedef CUresult (*alloc_async_fn)(CUdeviceptr *, size_t, CUstream);
typedef CUresult (*alloc_pool_fn)(CUdeviceptr *, size_t, CUmemoryPool, CUstream);
typedef CUresult (*host_alloc_fn)(void **, size_t, unsigned int);
typedef CUresult (*free_async_fn)(CUdeviceptr, CUstream);
typedef CUresult (*create_fn)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,
                              unsigned long long);
typedef CUresult (*release_fn)(CUmemGenericAllocationHandle);

static CUresult hook_cuMemAllocPitch(const gmemrt_where *w, CUdeviceptr *dptr, size_t *pitch,
                                     size_t width, size_t height, unsigned int elem) {
  REAL(alloc_pitch_fn, real, "cuMemAllocPitch_v2")
  if (!real)
    return missing("cuMemAllocPitch_v2");
  if (!gmemrt_hooks_enabled())
    return real(dptr, pitch, width, height, elem);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(dptr, pitch, width, height, elem);
  uint64_t size =
      rc == CUDA_SUCCESS && pitch ? (uint64_t)*pitch * height : (uint64_t)width * height;
  return alloc_done(w, "cuMemAllocPitch", FAM_CU_DEVICE, rc,
                    rc == CUDA_SUCCESS ? (void *)(uintptr_t)*dptr : NULL, size, t0);
}

static CUresult hook_cuMemAllocAsync(const gmemrt_where *w, CUdeviceptr *dptr, size_t size,
                                     CUstream stream) {
  REAL(alloc_async_fn, real, "cuMemAllocAsync")
  if (!real)
    return missing("cuMemAllocAsync");
  if (!gmemrt_hooks_enabled())
    return real(dptr, size, stream);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(dptr, size, stream);
  return alloc_done(w, "cuMemAllocAsync", FAM_CU_DEVICE, rc,
                    rc == CUDA_SUCCESS ? (void *)(uintptr_t)*dptr : NULL, size, t0);
}

static CUresult hook_cuMemAllocFromPoolAsync(const gmemrt_where *w, CUdeviceptr *dptr, size_t size,
                                             CUmemoryPool pool, CUstream stream) {
  REAL(alloc_pool_fn, real, "cuMemAllocFromPoolAsync")
  if (!real)
    return missing("cuMemAllocFromPoolAsync");
  if (!gmemrt_hooks_enabled())
    return real(dptr, size, pool, stream);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(dptr, size, pool, stream);
  return alloc_done(w, "cuMemAllocFromPoolAsync", FAM_CU_DEVICE, rc,
                    rc == CUDA_SUCCESS ? (void *)(uintptr_t)*dptr : NULL, size, t0);
}

static CUresult hook_cuMemHostAlloc(const gmemrt_where *w, void **pp, size_t size,
                                    unsigned int flags) {
  REAL(host_alloc_fn, real, "cuMemHostAlloc")
  if (!real)
    return missing("cuMemHostAlloc");
  if (!gmemrt_hooks_enabled())
    return real(pp, size, flags);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(pp, size, flags);
  return alloc_done(w, "cuMemHostAlloc", FAM_CU_HOST, rc, rc == CUDA_SUCCESS ? *pp : NULL, size,
                    t0);
}

/* A physical allocation has no address until it is mapped: its handle stands for it. */
static CUresult hook_cuMemCreate(const gmemrt_where *w, CUmemGenericAllocationHandle *handle,
                                 size_t size, const CUmemAllocationProp *prop,
                                 unsigned long long flags) {
  REAL(create_fn, real, "cuMemCreate")
  if (!real)
    return missing("cuMemCreate");
  if (!gmemrt_hooks_enabled())
    return real(handle, size, prop, flags);
  uint64_t t0 = gmemrt_start_clock();
  CUresult rc = real(handle, size, prop, flags);
  return alloc_done(w, "cuMemCreate", FAM_CU_HANDLE, rc,
                    rc == CUDA_SUCCESS ? (void *)(uintptr_t)*handle : NULL, size, t0);
}

#define DRIVER_FREE(api, free_api, key, call)                                                      \
  if (!gmemrt_hooks_enabled())                                                                     \
    return call;                                                                                   \
  gmemrt_free_in_flight f;                                                                         \
  gmemrt_before_free(w, api, free_api, key, &f);                                                   \
  CUresult rc = call;                                                                              \
  gmemrt_after_free(&f, rc == CUDA_SUCCESS);                                                       \
  return rc

static CUresult hook_cuMemFreeAsync(const gmemrt_where *w, CUdeviceptr dptr, CUstream stream) {
  REAL(free_async_fn, real, "cuMemFreeAsync")
  if (!real)
    return missing("cuMemFreeAsync");
  DRIVER_FREE("cuMemFreeAsync", FREE_CU_ASYNC, (void *)(uintptr_t)dptr, real(dptr, stream));
}

static CUresult hook_cuMemRelease(const gmemrt_where *w, CUmemGenericAllocationHandle handle) {
  REAL(release_fn, real, "cuMemRelease")
  if (!real)
    return missing("cuMemRelease");
  DRIVER_FREE("cuMemRelease", FREE_CU_RELEASE, (void *)(uintptr_t)handle, real(handle));
}

/* The forced-include entry points, and in the preloaded library the driver's own (versioned)
 * names. */
#define HOOK(name, sym, params, args)                                                              \
  GMEMRT_HOOK(CUresult, gmemrt_##name, hook_##name, sym, params, args)

HOOK(cuMemAlloc, cuMemAlloc_v2, (CUdeviceptr * dptr, size_t size), (dptr, size))
HOOK(cuMemAllocManaged, cuMemAllocManaged, (CUdeviceptr * dptr, size_t size, unsigned int flags),
     (dptr, size, flags))
HOOK(cuMemAllocHost, cuMemAllocHost_v2, (void **pp, size_t size), (pp, size))
HOOK(cuMemFree, cuMemFree_v2, (CUdeviceptr dptr), (dptr))
HOOK(cuMemFreeHost, cuMemFreeHost, (void *p), (p))
HOOK(cuMemAllocPitch, cuMemAllocPitch_v2,
     (CUdeviceptr * dptr, size_t *pitch, size_t width, size_t height, unsigned int elem),
     (dptr, pitch, width, height, elem))
HOOK(cuMemAllocAsync, cuMemAllocAsync, (CUdeviceptr * dptr, size_t size, CUstream stream),
     (dptr, size, stream))
HOOK(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync,
     (CUdeviceptr * dptr, size_t size, CUmemoryPool pool, CUstream stream),
     (dptr, size, pool, stream))
HOOK(cuMemHostAlloc, cuMemHostAlloc, (void **pp, size_t size, unsigned int flags),
     (pp, size, flags))
HOOK(cuMemCreate, cuMemCreate,
     (CUmemGenericAllocationHandle * handle, size_t size, const CUmemAllocationProp *prop,
      unsigned long long flags),
     (handle, size, prop, flags))
HOOK(cuMemFreeAsync, cuMemFreeAsync, (CUdeviceptr dptr, CUstream stream), (dptr, stream))
HOOK(cuMemRelease, cuMemRelease, (CUmemGenericAllocationHandle handle), (handle))
