/* The hooks gmem_forced.h routes calls to. Each calls the real function, records what happened
 * at its site, and returns exactly what the real call returned. */
#include "internal.h"

#include <cuda_runtime.h>

static int enabled(void) {
  gmemrt_init();
  return !gmemrt.broken && !gmemrt_opt.disabled;
}

/* Reading the clock twice costs about as much as a cudaMallocAsync's own bookkeeping, so each
 * thread times its first 4096 calls and then one in 16; sites report the measured time scaled
 * by the calls they made (alloc_timed_calls says how many were measured). */
static __thread uint32_t thread_calls;

static inline uint64_t start_clock(void) {
  uint32_t n = ++thread_calls;
  return n <= 4096 || (n & 15) == 0 ? gmemrt_now_ns() : 0;
}

static inline uint64_t stop_clock(uint64_t t0) {
  return t0 ? gmemrt_now_ns() - t0 + 1 : 0;
}

int gmemrt_hooks_enabled(void) {
  return enabled();
}
uint64_t gmemrt_start_clock(void) {
  return start_clock();
}

static cudaError_t after_alloc(const char *file, int line, int col, const char *api, int family,
                               cudaError_t rc, void **ptr, uint64_t size, uint64_t t0) {
  gmemrt_after_alloc(file, line, col, api, family, rc == cudaSuccess,
                     rc == cudaErrorMemoryAllocation, ptr && rc == cudaSuccess ? *ptr : NULL, size,
                     t0);
  return rc;
}

int gmemrt_after_alloc(const char *file, int line, int col, const char *api, int family, int ok,
                       int out_of_memory, void *ptr, uint64_t size, uint64_t t0) {
  uint64_t ns = stop_clock(t0);
  gmemrt_after_cuda_call();
  pthread_mutex_lock(&gmemrt.lock);
  int site = gmemrt_site_for(file, line, col, api, family);
  gmemrt_site *s = site >= 0 ? gmemrt_site_at((size_t)site) : NULL;
  if (s && s->calls + s->failed_calls < 64) {
    /* the calling thread's device, for a site's first calls (a cheap query, but not free) */
    int device = 0;
    cudaGetDevice(&device);
    if (s->calls + s->failed_calls == 0)
      s->device = device;
    else if (s->device != device)
      s->device = -1; /* several devices */
  }
  if (ok && ptr) {
    gmemrt_record_alloc(site, ptr, size, family, ns);
    gmemrt_capture_stack(site);
  } else {
    gmemrt_record_failed_alloc(site, size, ns);
  }
  pthread_mutex_unlock(&gmemrt.lock);
  if (out_of_memory)
    gmemrt_oom_event(site, size);
  return site;
}

void gmemrt_before_free(const char *file, int line, int col, const char *api, int free_api,
                        void *ptr, int *site, int *was_live, struct live_entry *saved,
                        uint64_t *t0) {
  pthread_mutex_lock(&gmemrt.lock);
  *site = gmemrt_site_for(file, line, col, api, -2);
  *was_live = gmemrt_free_begin(ptr, free_api, saved);
  pthread_mutex_unlock(&gmemrt.lock);
  *t0 = start_clock();
}

void gmemrt_after_free(int site, int was_live, const struct live_entry *saved, int ok,
                       uint64_t t0) {
  uint64_t ns = stop_clock(t0);
  if (was_live && !ok) {
    pthread_mutex_lock(&gmemrt.lock);
    gmemrt_free_failed(saved);
    pthread_mutex_unlock(&gmemrt.lock);
  }
  gmemrt_add_free_ns(site, ns);
}

#define ALLOC_HOOK(api, family, size_expr, call)                                                   \
  if (!enabled())                                                                                  \
    return call;                                                                                   \
  uint64_t t0 = start_clock();                                                                     \
  cudaError_t rc = call;                                                                           \
  return after_alloc(file, line, col, api, family, rc, ptr, (uint64_t)(size_expr), t0)

cudaError_t gmemrt_cudaMalloc(const char *file, int line, int col, void **ptr, size_t size) {
  ALLOC_HOOK("cudaMalloc", FAM_DEVICE, size, cudaMalloc(ptr, size));
}

cudaError_t gmemrt_cudaMallocManaged(const char *file, int line, int col, void **ptr, size_t size,
                                     unsigned int flags) {
  ALLOC_HOOK("cudaMallocManaged", FAM_MANAGED, size, cudaMallocManaged(ptr, size, flags));
}

cudaError_t gmemrt_cudaMallocHost(const char *file, int line, int col, void **ptr, size_t size) {
  ALLOC_HOOK("cudaMallocHost", FAM_HOST, size, cudaMallocHost(ptr, size));
}

cudaError_t gmemrt_cudaHostAlloc(const char *file, int line, int col, void **ptr, size_t size,
                                 unsigned int flags) {
  ALLOC_HOOK("cudaHostAlloc", FAM_HOST, size, cudaHostAlloc(ptr, size, flags));
}

cudaError_t gmemrt_cudaMallocPitch(const char *file, int line, int col, void **ptr, size_t *pitch,
                                   size_t width, size_t height) {
  if (!enabled())
    return cudaMallocPitch(ptr, pitch, width, height);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMallocPitch(ptr, pitch, width, height);
  uint64_t size = rc == cudaSuccess && pitch ? (uint64_t)*pitch * height : (uint64_t)width * height;
  return after_alloc(file, line, col, "cudaMallocPitch", FAM_DEVICE, rc, ptr, size, t0);
}

/* Remembers the pool an allocation came from, and samples the pools now and then. */
static void note_pool(cudaMemPool_t pool) {
  int device = 0;
  pthread_mutex_lock(&gmemrt.lock);
  int first = gmemrt.async_calls++ == 0;
  int sample = (gmemrt.async_calls & 4095) == 0;
  int known = 0;
  for (int i = 0; i < gmemrt.npools; i++)
    known |= gmemrt.pools[i].handle == (void *)pool;
  pthread_mutex_unlock(&gmemrt.lock);
  if (!pool && (first || !known)) {
    cudaGetDevice(&device);
    pthread_mutex_lock(&gmemrt.lock);
    gmemrt_pool_note(NULL, device);
    pthread_mutex_unlock(&gmemrt.lock);
  } else if (pool && !known) {
    pthread_mutex_lock(&gmemrt.lock);
    gmemrt_pool_note((void *)pool, -1);
    pthread_mutex_unlock(&gmemrt.lock);
  }
  if (sample)
    gmemrt_pools_sample();
}

cudaError_t gmemrt_cudaMalloc3D(const char *file, int line, int col, struct cudaPitchedPtr *pp,
                                struct cudaExtent extent) {
  if (!enabled())
    return cudaMalloc3D(pp, extent);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMalloc3D(pp, extent);
  uint64_t size = rc == cudaSuccess ? (uint64_t)pp->pitch * extent.height * extent.depth
                                    : (uint64_t)extent.width * extent.height * extent.depth;
  void *ptr = rc == cudaSuccess ? pp->ptr : NULL;
  return after_alloc(file, line, col, "cudaMalloc3D", FAM_DEVICE, rc, &ptr, size, t0);
}

/* Bytes in a CUDA array: the element size from its channel format, times its extent. */
static uint64_t array_bytes(const struct cudaChannelFormatDesc *desc, size_t w, size_t h,
                            size_t d) {
  uint64_t elem = desc ? (uint64_t)(desc->x + desc->y + desc->z + desc->w) / 8 : 0;
  return elem * (w ? w : 1) * (h ? h : 1) * (d ? d : 1);
}

cudaError_t gmemrt_cudaMallocArray(const char *file, int line, int col, cudaArray_t *array,
                                   const struct cudaChannelFormatDesc *desc, size_t width,
                                   size_t height, unsigned int flags) {
  if (!enabled())
    return cudaMallocArray(array, desc, width, height, flags);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMallocArray(array, desc, width, height, flags);
  void *ptr = rc == cudaSuccess ? (void *)*array : NULL;
  return after_alloc(file, line, col, "cudaMallocArray", FAM_ARRAY, rc, &ptr,
                     array_bytes(desc, width, height, 0), t0);
}

cudaError_t gmemrt_cudaMalloc3DArray(const char *file, int line, int col, cudaArray_t *array,
                                     const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags) {
  if (!enabled())
    return cudaMalloc3DArray(array, desc, extent, flags);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMalloc3DArray(array, desc, extent, flags);
  void *ptr = rc == cudaSuccess ? (void *)*array : NULL;
  return after_alloc(file, line, col, "cudaMalloc3DArray", FAM_ARRAY, rc, &ptr,
                     array_bytes(desc, extent.width, extent.height, extent.depth), t0);
}

cudaError_t gmemrt_cudaMallocAsync(const char *file, int line, int col, void **ptr, size_t size,
                                   cudaStream_t stream) {
  if (!enabled())
    return cudaMallocAsync(ptr, size, stream);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMallocAsync(ptr, size, stream);
  cudaError_t out = after_alloc(file, line, col, "cudaMallocAsync", FAM_ASYNC, rc, ptr, size, t0);
  note_pool(NULL);
  return out;
}

cudaError_t gmemrt_cudaMallocFromPoolAsync(const char *file, int line, int col, void **ptr,
                                           size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  if (!enabled())
    return cudaMallocFromPoolAsync(ptr, size, pool, stream);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMallocFromPoolAsync(ptr, size, pool, stream);
  cudaError_t out =
      after_alloc(file, line, col, "cudaMallocFromPoolAsync", FAM_ASYNC, rc, ptr, size, t0);
  note_pool(pool);
  return out;
}

#define FREE_HOOK(api, free_api, call)                                                             \
  if (!enabled())                                                                                  \
    return call;                                                                                   \
  int site, was_live;                                                                              \
  struct live_entry saved;                                                                         \
  uint64_t t0;                                                                                     \
  gmemrt_before_free(file, line, col, api, free_api, ptr, &site, &was_live, &saved, &t0);          \
  cudaError_t rc = call;                                                                           \
  gmemrt_after_free(site, was_live, &saved, rc == cudaSuccess, t0);                                \
  return rc

cudaError_t gmemrt_cudaFree(const char *file, int line, int col, void *ptr) {
  FREE_HOOK("cudaFree", FREE_CUDA, cudaFree(ptr));
}

cudaError_t gmemrt_cudaFreeHost(const char *file, int line, int col, void *ptr) {
  FREE_HOOK("cudaFreeHost", FREE_HOST, cudaFreeHost(ptr));
}

cudaError_t gmemrt_cudaFreeArray(const char *file, int line, int col, cudaArray_t array) {
  void *ptr = (void *)array;
  FREE_HOOK("cudaFreeArray", FREE_ARRAY, cudaFreeArray(array));
}

cudaError_t gmemrt_cudaFreeAsync(const char *file, int line, int col, void *ptr,
                                 cudaStream_t stream) {
  FREE_HOOK("cudaFreeAsync", FREE_ASYNC, cudaFreeAsync(ptr, stream));
}

static cudaError_t after_copy(const char *file, int line, int col, const char *api, uint64_t bytes,
                              cudaError_t rc, uint64_t t0) {
  uint64_t ns = gmemrt_now_ns() - t0;
  pthread_mutex_lock(&gmemrt.lock);
  gmemrt_record_copy(gmemrt_site_for(file, line, col, api, -1), bytes, ns);
  pthread_mutex_unlock(&gmemrt.lock);
  return rc;
}

cudaError_t gmemrt_cudaMemcpy(const char *file, int line, int col, void *dst, const void *src,
                              size_t count, enum cudaMemcpyKind kind) {
  if (!enabled())
    return cudaMemcpy(dst, src, count, kind);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMemcpy(dst, src, count, kind);
  return after_copy(file, line, col, "cudaMemcpy", count, rc, t0);
}

cudaError_t gmemrt_cudaMemcpyAsync(const char *file, int line, int col, void *dst, const void *src,
                                   size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) {
  if (!enabled())
    return cudaMemcpyAsync(dst, src, count, kind, stream);
  uint64_t t0 = start_clock();
  cudaError_t rc = cudaMemcpyAsync(dst, src, count, kind, stream);
  return after_copy(file, line, col, "cudaMemcpyAsync", count, rc, t0);
}

const void *gmemrt_note_prefetch(const char *file, int line, int col, const void *ptr) {
  if (!enabled())
    return ptr;
  pthread_mutex_lock(&gmemrt.lock);
  int site = gmemrt_site_for(file, line, col, "cudaMemPrefetchAsync", -1);
  if (site >= 0)
    gmemrt_site_at(site)->prefetches++;
  pthread_mutex_unlock(&gmemrt.lock);
  return ptr;
}
