/* The hooks gmem_forced.h routes calls to. Each calls the real function, records what happened
 * at its site, and returns exactly what the real call returned. */
#include "hooks.h"
#include "internal.h"
#include "oom.h"
#include "pairs.h"
#include "phases.h"
#include "pools.h"
#include "real.h"
#include "record.h"

#include <cuda.h>
#include <cuda_runtime.h>

_Static_assert((int)cudaErrorMemoryAllocation == (int)CUDA_ERROR_OUT_OF_MEMORY,
               "both APIs say out of memory with one value");

static int enabled(void) {
  gmemrt_init();
  return !gmemrt.broken && !gmemrt_opt.disabled;
}

__thread uint32_t gmemrt_thread_calls, gmemrt_thread_frees; /* gmemrt_sampled_clock() (hooks.h) */

int gmemrt_hooks_enabled(void) {
  return enabled();
}

static cudaError_t after_alloc(const gmemrt_where *w, const char *api, int family, cudaError_t rc,
                               void **ptr, uint64_t size, uint64_t t0) {
  gmemrt_after_alloc(w, api, family, rc, 0, ptr && rc == cudaSuccess ? *ptr : NULL, size, t0);
  return rc;
}

int gmemrt_after_alloc(const gmemrt_where *w, const char *api, int family, int error,
                       int driver_api, void *ptr, uint64_t size, uint64_t t0) {
  uint64_t ns;
  GMEMRT_PHASE(CLOCK, ns = gmemrt_stop_clock(t0));
  GMEMRT_PHASE(AFTER, gmemrt_after_cuda_call());
  int ok = error == 0, out_of_memory = error == cudaErrorMemoryAllocation;
  int paired = 0;
  GMEMRT_PHASE(PAIR, paired = ok && ptr && family == FAM_ASYNC &&
                              gmemrt_pair_alloc(w, api, ptr, size, ns));
  if (paired) /* a repeat of the thread's batched pair: it waits in the thread's slot */
    return gmemrt_pair_me.batch.alloc_site;
  /* named before the lock: the first name asked for looks the CUDA library's function up */
  const char *error_name = ok ? NULL : gmemrt_error_name(error, driver_api);
  GMEMRT_PHASE(LOCK, gmemrt_lock());
  gmemrt_pairs_flush_own(); /* the thread's earlier pairs and waiting block come first */
  int site;
  GMEMRT_PHASE(SITE, site = gmemrt_site_for(w, api, family));
  gmemrt_site *s = site >= 0 ? gmemrt_site_at((size_t)site) : NULL;
  /* The calling thread's device: asked for a site's first 64 calls and for sites that used
   * several devices; a site that kept to one device is taken to stay there (the query is
   * cheap, but not free against a 1 us cudaMallocAsync). */
  int device = s && s->device >= 0 ? s->device : 0;
  if (s && (s->calls + s->failed_calls < 64 || s->device < 0)) {
    GMEMRT_PHASE(DEVICE, CUDA_REAL(cudaGetDevice)(&device));
    if (s->calls + s->failed_calls == 0)
      s->device = device;
    else if (s->device != device)
      s->device = -1; /* several devices */
  }
  if (ok && ptr) {
    GMEMRT_PHASE(RECORD, gmemrt_record_alloc(site, ptr, size, family, device, ns));
    if (family == FAM_ASYNC)
      gmemrt_pairs_note_alloc(w, api, ptr);
    GMEMRT_PHASE(STACK, gmemrt_capture_stack(site, w->ret));
  } else {
    gmemrt_record_failed_alloc(site, size, ns, error, driver_api, error_name);
  }
  int need_baseline = ok && device >= 0 && device < MAX_DEVICES &&
                      !gmemrt.devices[device].baseline_tried && gmemrt_is_device_resident(family);
  if (need_baseline)
    gmemrt.devices[device].baseline_tried = 1;
  gmemrt_unlock();
  if (need_baseline)
    gmemrt_note_baseline(device);
  if (out_of_memory)
    gmemrt_oom_event(site, size);
  return site;
}

void gmemrt_before_free(const gmemrt_where *w, const char *api, int free_api, void *ptr,
                        gmemrt_free_in_flight *f) {
  GMEMRT_PHASE(PAIR, f->paired = free_api == FREE_ASYNC && gmemrt_pair_free(w, api, ptr));
  if (f->paired) { /* the thread's waiting block, freed where its batch frees it */
    f->site = -1;
    f->was_live = 0;
    GMEMRT_PHASE(CLOCK, f->t0 = gmemrt_sampled_clock(&gmemrt_thread_frees));
    return;
  }
  GMEMRT_PHASE(LOCK, gmemrt_lock());
  gmemrt_pairs_flush_own();
  GMEMRT_PHASE(SITE, f->site = gmemrt_site_for(w, api, -2));
  if (f->site >= 0)
    gmemrt_site_at((size_t)f->site)->free_calls++; /* here, under the lock: no atomic per free */
  GMEMRT_PHASE(RECORD, f->was_live = gmemrt_free_begin(ptr, free_api, &f->saved));
  if (f->was_live) /* a free of the thread's latest allocation may start a batch */
    gmemrt_pairs_note_free(w, api, free_api, f->site, &f->saved);
  gmemrt_unlock();
  GMEMRT_PHASE(CLOCK, f->t0 = gmemrt_sampled_clock(&gmemrt_thread_frees));
}

void gmemrt_after_free(const gmemrt_free_in_flight *f, int ok) {
  uint64_t ns;
  GMEMRT_PHASE(CLOCK, ns = gmemrt_stop_clock(f->t0));
  if (f->paired) {
    GMEMRT_PHASE(PAIR, gmemrt_pair_freed(ok, ns));
    return;
  }
  if (f->was_live && !ok) {
    gmemrt_pair_me.batch.armed = 0; /* armed by this free (before the call): it failed */
    gmemrt_lock();
    gmemrt_free_failed(&f->saved);
    gmemrt_unlock();
  }
  gmemrt_add_free_ns(f->site, ns);
}

/* The runtime API's hooks; the entry points come from GMEMRT_HOOK (hooks.h). */
#define HOOK(name, params, args)                                                                   \
  GMEMRT_HOOK(cudaError_t, gmemrt_##name, hook_##name, name, params, args)

#define ALLOC_HOOK(api, family, size_expr, call)                                                   \
  if (!enabled())                                                                                  \
    return call;                                                                                   \
  GMEMRT_PHASE_BEGIN(0);                                                                           \
  uint64_t t0;                                                                                     \
  GMEMRT_PHASE(CLOCK, t0 = gmemrt_start_clock());                                                  \
  cudaError_t rc;                                                                                  \
  GMEMRT_PHASE_REAL_CALL(rc = call);                                                               \
  after_alloc(w, api, family, rc, ptr, (uint64_t)(size_expr), t0);                                 \
  GMEMRT_PHASE_END();                                                                              \
  return rc

static cudaError_t hook_cudaMalloc(const gmemrt_where *w, void **ptr, size_t size) {
  ALLOC_HOOK("cudaMalloc", FAM_DEVICE, size, CUDA_REAL(cudaMalloc)(ptr, size));
}
HOOK(cudaMalloc, (void **ptr, size_t size), (ptr, size))

static cudaError_t hook_cudaMallocManaged(const gmemrt_where *w, void **ptr, size_t size,
                                          unsigned int flags) {
  ALLOC_HOOK("cudaMallocManaged", FAM_MANAGED, size,
             CUDA_REAL(cudaMallocManaged)(ptr, size, flags));
}
HOOK(cudaMallocManaged, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags))

static cudaError_t hook_cudaMallocHost(const gmemrt_where *w, void **ptr, size_t size) {
  ALLOC_HOOK("cudaMallocHost", FAM_HOST, size, CUDA_REAL(cudaMallocHost)(ptr, size));
}
HOOK(cudaMallocHost, (void **ptr, size_t size), (ptr, size))

static cudaError_t hook_cudaHostAlloc(const gmemrt_where *w, void **ptr, size_t size,
                                      unsigned int flags) {
  ALLOC_HOOK("cudaHostAlloc", FAM_HOST, size, CUDA_REAL(cudaHostAlloc)(ptr, size, flags));
}
HOOK(cudaHostAlloc, (void **ptr, size_t size, unsigned int flags), (ptr, size, flags))

static cudaError_t hook_cudaMallocPitch(const gmemrt_where *w, void **ptr, size_t *pitch,
                                        size_t width, size_t height) {
  if (!enabled())
    return CUDA_REAL(cudaMallocPitch)(ptr, pitch, width, height);
  uint64_t t0 = gmemrt_start_clock();
  cudaError_t rc = CUDA_REAL(cudaMallocPitch)(ptr, pitch, width, height);
  uint64_t size = rc == cudaSuccess && pitch ? (uint64_t)*pitch * height : (uint64_t)width * height;
  return after_alloc(w, "cudaMallocPitch", FAM_DEVICE, rc, ptr, size, t0);
}
HOOK(cudaMallocPitch, (void **ptr, size_t *pitch, size_t width, size_t height),
     (ptr, pitch, width, height))

/* Remembers that stream-ordered pools are in use, and samples them every 4096 calls of a thread.
 * Each thread remembers the last pool it reported, so the common case takes no lock. */
static __thread void *thread_noted_pool;
static __thread int thread_noted_default;
static __thread uint32_t thread_async_calls; /* per thread: no shared counter on every call */

static void note_pool(cudaMemPool_t pool) {
  uint32_t n = ++thread_async_calls;
  if (pool ? thread_noted_pool != (void *)pool : !thread_noted_default) {
    gmemrt_lock();
    if (pool)
      gmemrt_pool_note((void *)pool, -1);
    else
      gmemrt.default_pools_used = 1;
    gmemrt_unlock();
    if (pool)
      thread_noted_pool = (void *)pool;
    else
      thread_noted_default = 1;
  }
  if ((n & 4095) == 0)
    gmemrt_pools_sample();
}

static cudaError_t hook_cudaMalloc3D(const gmemrt_where *w, struct cudaPitchedPtr *pp,
                                     struct cudaExtent extent) {
  if (!enabled())
    return CUDA_REAL(cudaMalloc3D)(pp, extent);
  uint64_t t0 = gmemrt_start_clock();
  cudaError_t rc = CUDA_REAL(cudaMalloc3D)(pp, extent);
  uint64_t size = rc == cudaSuccess ? (uint64_t)pp->pitch * extent.height * extent.depth
                                    : (uint64_t)extent.width * extent.height * extent.depth;
  void *ptr = rc == cudaSuccess ? pp->ptr : NULL;
  return after_alloc(w, "cudaMalloc3D", FAM_DEVICE, rc, &ptr, size, t0);
}
HOOK(cudaMalloc3D, (struct cudaPitchedPtr * pp, struct cudaExtent extent), (pp, extent))

/* Bytes in a CUDA array: the element size from its channel format, times its extent. */
static uint64_t array_bytes(const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                            size_t d) {
  uint64_t elem = desc ? (uint64_t)(desc->x + desc->y + desc->z + desc->w) / 8 : 0;
  return elem * (w ? w : 1) * (h ? h : 1) * (d ? d : 1);
}

static cudaError_t hook_cudaMallocArray(const gmemrt_where *w, cudaArray_t *array,
                                        const struct cudaChannelFormatDesc *desc, size_t width,
                                        size_t height, unsigned int flags) {
  if (!enabled())
    return CUDA_REAL(cudaMallocArray)(array, desc, width, height, flags);
  uint64_t t0 = gmemrt_start_clock();
  cudaError_t rc = CUDA_REAL(cudaMallocArray)(array, desc, width, height, flags);
  void *ptr = rc == cudaSuccess ? (void *)*array : NULL;
  return after_alloc(w, "cudaMallocArray", FAM_ARRAY, rc, &ptr, array_bytes(desc, width, height, 0),
                     t0);
}
HOOK(cudaMallocArray,
     (cudaArray_t * array, const struct cudaChannelFormatDesc *desc, size_t width, size_t height,
      unsigned int flags),
     (array, desc, width, height, flags))

static cudaError_t hook_cudaMalloc3DArray(const gmemrt_where *w, cudaArray_t *array,
                                          const struct cudaChannelFormatDesc *desc,
                                          struct cudaExtent extent, unsigned int flags) {
  if (!enabled())
    return CUDA_REAL(cudaMalloc3DArray)(array, desc, extent, flags);
  uint64_t t0 = gmemrt_start_clock();
  cudaError_t rc = CUDA_REAL(cudaMalloc3DArray)(array, desc, extent, flags);
  void *ptr = rc == cudaSuccess ? (void *)*array : NULL;
  return after_alloc(w, "cudaMalloc3DArray", FAM_ARRAY, rc, &ptr,
                     array_bytes(desc, extent.width, extent.height, extent.depth), t0);
}
HOOK(cudaMalloc3DArray,
     (cudaArray_t * array, const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
      unsigned int flags),
     (array, desc, extent, flags))

/* A mipmapped array: every level, each half the last in every dimension (at least 1). */
static cudaError_t hook_cudaMallocMipmappedArray(const gmemrt_where *w, cudaMipmappedArray_t *array,
                                                 const struct cudaChannelFormatDesc *desc,
                                                 struct cudaExtent extent, unsigned int levels,
                                                 unsigned int flags) {
  if (!enabled())
    return CUDA_REAL(cudaMallocMipmappedArray)(array, desc, extent, levels, flags);
  uint64_t t0 = gmemrt_start_clock();
  cudaError_t rc = CUDA_REAL(cudaMallocMipmappedArray)(array, desc, extent, levels, flags);
  uint64_t size = 0;
  size_t wd = extent.width, h = extent.height, d = extent.depth;
  for (unsigned i = 0; i < (levels ? levels : 1); i++) {
    size += array_bytes(desc, wd, h, d);
    wd = wd > 1 ? wd / 2 : wd;
    h = h > 1 ? h / 2 : h;
    d = d > 1 ? d / 2 : d;
  }
  void *ptr = rc == cudaSuccess ? (void *)*array : NULL;
  return after_alloc(w, "cudaMallocMipmappedArray", FAM_MIPMAP, rc, &ptr, size, t0);
}
HOOK(cudaMallocMipmappedArray,
     (cudaMipmappedArray_t * array, const struct cudaChannelFormatDesc *desc,
      struct cudaExtent extent, unsigned int levels, unsigned int flags),
     (array, desc, extent, levels, flags))

static cudaError_t hook_cudaMallocAsync(const gmemrt_where *w, void **ptr, size_t size,
                                        cudaStream_t stream) {
  if (!enabled())
    return CUDA_REAL(cudaMallocAsync)(ptr, size, stream);
  GMEMRT_PHASE_BEGIN(1);
  uint64_t t0;
  GMEMRT_PHASE(CLOCK, t0 = gmemrt_start_clock());
  cudaError_t rc;
  GMEMRT_PHASE_REAL_CALL(rc = CUDA_REAL(cudaMallocAsync)(ptr, size, stream));
  after_alloc(w, "cudaMallocAsync", FAM_ASYNC, rc, ptr, size, t0);
  GMEMRT_PHASE(POOL, note_pool(NULL));
  GMEMRT_PHASE_END();
  return rc;
}
HOOK(cudaMallocAsync, (void **ptr, size_t size, cudaStream_t stream), (ptr, size, stream))

static cudaError_t hook_cudaMallocFromPoolAsync(const gmemrt_where *w, void **ptr, size_t size,
                                                cudaMemPool_t pool, cudaStream_t stream) {
  if (!enabled())
    return CUDA_REAL(cudaMallocFromPoolAsync)(ptr, size, pool, stream);
  GMEMRT_PHASE_BEGIN(1);
  uint64_t t0;
  GMEMRT_PHASE(CLOCK, t0 = gmemrt_start_clock());
  cudaError_t rc;
  GMEMRT_PHASE_REAL_CALL(rc = CUDA_REAL(cudaMallocFromPoolAsync)(ptr, size, pool, stream));
  after_alloc(w, "cudaMallocFromPoolAsync", FAM_ASYNC, rc, ptr, size, t0);
  GMEMRT_PHASE(POOL, note_pool(pool));
  GMEMRT_PHASE_END();
  return rc;
}
HOOK(cudaMallocFromPoolAsync, (void **ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream),
     (ptr, size, pool, stream))

#define FREE_HOOK(api, free_api, call)                                                             \
  if (!enabled())                                                                                  \
    return call;                                                                                   \
  GMEMRT_PHASE_BEGIN(free_api == FREE_ASYNC);                                                      \
  gmemrt_free_in_flight f;                                                                         \
  gmemrt_before_free(w, api, free_api, ptr, &f);                                                   \
  cudaError_t rc;                                                                                  \
  GMEMRT_PHASE_REAL_CALL(rc = call);                                                               \
  gmemrt_after_free(&f, rc == cudaSuccess);                                                        \
  GMEMRT_PHASE_END();                                                                              \
  return rc

static cudaError_t hook_cudaFree(const gmemrt_where *w, void *ptr) {
  FREE_HOOK("cudaFree", FREE_CUDA, CUDA_REAL(cudaFree)(ptr));
}
HOOK(cudaFree, (void *ptr), (ptr))

static cudaError_t hook_cudaFreeHost(const gmemrt_where *w, void *ptr) {
  FREE_HOOK("cudaFreeHost", FREE_HOST, CUDA_REAL(cudaFreeHost)(ptr));
}
HOOK(cudaFreeHost, (void *ptr), (ptr))

static cudaError_t hook_cudaFreeArray(const gmemrt_where *w, cudaArray_t array) {
  void *ptr = (void *)array;
  FREE_HOOK("cudaFreeArray", FREE_ARRAY, CUDA_REAL(cudaFreeArray)(array));
}
HOOK(cudaFreeArray, (cudaArray_t array), (array))

static cudaError_t hook_cudaFreeMipmappedArray(const gmemrt_where *w, cudaMipmappedArray_t array) {
  void *ptr = (void *)array;
  FREE_HOOK("cudaFreeMipmappedArray", FREE_MIPMAP, CUDA_REAL(cudaFreeMipmappedArray)(array));
}
HOOK(cudaFreeMipmappedArray, (cudaMipmappedArray_t array), (array))

static cudaError_t hook_cudaFreeAsync(const gmemrt_where *w, void *ptr, cudaStream_t stream) {
  FREE_HOOK("cudaFreeAsync", FREE_ASYNC, CUDA_REAL(cudaFreeAsync)(ptr, stream));
}
HOOK(cudaFreeAsync, (void *ptr, cudaStream_t stream), (ptr, stream))

static cudaError_t after_copy(const gmemrt_where *w, const char *api, uint64_t bytes,
                              cudaError_t rc, uint64_t t0, enum cudaMemcpyKind kind,
                              const void *dst, const void *src) {
  uint64_t ns = gmemrt_now_ns() - t0;
  gmemrt_lock();
  gmemrt_record_copy(gmemrt_site_for(w, api, -1), bytes, ns, (int)kind, dst, src);
  gmemrt_unlock();
  return rc;
}

static cudaError_t hook_cudaMemcpy(const gmemrt_where *w, void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind) {
  if (!enabled())
    return CUDA_REAL(cudaMemcpy)(dst, src, count, kind);
  uint64_t t0 = gmemrt_now_ns();
  cudaError_t rc = CUDA_REAL(cudaMemcpy)(dst, src, count, kind);
  return after_copy(w, "cudaMemcpy", count, rc, t0, kind, dst, src);
}
HOOK(cudaMemcpy, (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind),
     (dst, src, count, kind))

static cudaError_t hook_cudaMemcpyAsync(const gmemrt_where *w, void *dst, const void *src,
                                        size_t count, enum cudaMemcpyKind kind,
                                        cudaStream_t stream) {
  if (!enabled())
    return CUDA_REAL(cudaMemcpyAsync)(dst, src, count, kind, stream);
  uint64_t t0 = gmemrt_now_ns();
  cudaError_t rc = CUDA_REAL(cudaMemcpyAsync)(dst, src, count, kind, stream);
  return after_copy(w, "cudaMemcpyAsync", count, rc, t0, kind, dst, src);
}
HOOK(cudaMemcpyAsync,
     (void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream),
     (dst, src, count, kind, stream))

const void *gmemrt_note_prefetch(const char *file, int line, int col, const void *ptr) {
  if (!enabled())
    return ptr;
  gmemrt_where w = GMEMRT_SOURCE_WHERE;
  gmemrt_lock();
  int site = gmemrt_site_for(&w, "cudaMemPrefetchAsync", -1);
  if (site >= 0)
    gmemrt_site_at(site)->prefetches++;
  gmemrt_unlock();
  return ptr;
}
