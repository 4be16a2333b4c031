/* The injected runtime (gmemrun): the CUDA driver loads libgmemrt_inject.so named by
 * CUDA_INJECTION64_PATH and calls InitializeInjection; CUPTI's callback API then reports every
 * allocation, free and copy of the runtime and driver APIs, static cudart included, through the
 * same subscription the unified-memory counters use. Each call goes to the same hook bodies as
 * the other ways in; its site is the first frame of the caller outside CUDA's own code. The
 * runtime's own CUDA calls (free memory, probes, pools) go to the driver API, since the program
 * may carry its cudart statically, out of reach. */
#include "gmemrt.h"
#include "internal.h"
#include "real.h"

#include <cuda.h>
#include <cupti.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the runtime's own CUDA calls, through the driver ---- */

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

/* ---- which frames are CUDA's own ---- */

enum { FRAME_UNKNOWN, FRAME_CUDA, FRAME_CALLER };
enum { CLASS_SLOTS = 8192 };
static struct {
  uintptr_t pc;
  int kind;
} classes[CLASS_SLOTS];
static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;

static int starts(const char *s, const char *prefix) {
  return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* CUDA's libraries, this runtime, and the statically linked cudart inside the program (its
 * functions are cuda*, cu[A-Z]*, cudart:: and __cudart*). */
static int classify_slow(uintptr_t pc) {
  gmemrt_symbol sym;
  if (!gmemrt_symbolise(pc, &sym))
    return FRAME_CALLER;
  const char *mod = sym.module ? strrchr(sym.module, '/') : NULL;
  mod = mod ? mod + 1 : sym.module;
  const char *fn = sym.function;
  if (starts(mod, "libcuda") || starts(mod, "libcupti") || starts(mod, "libgmemrt") ||
      starts(mod, "libnvidia") || starts(fn, "cuda") || starts(fn, "__cuda") ||
      starts(fn, "_ZN6cudart") || starts(fn, "__cudart") || gmemrt_is_cuda_wrapper_name(fn) ||
      (fn && fn[0] == 'c' && fn[1] == 'u' && fn[2] >= 'A' && fn[2] <= 'Z'))
    return FRAME_CUDA;
  return FRAME_CALLER;
}

/* A frame's class, cached by address: read without a lock (a slot's kind is written before its
 * pc is published), symbolised once under it. */
static int classify(uintptr_t pc) {
  size_t h = (size_t)((pc * 0x9E3779B97F4A7C15ULL) >> 51) & (CLASS_SLOTS - 1);
  for (size_t i = h, n = 0; n < 16; i = (i + 1) & (CLASS_SLOTS - 1), n++) {
    uintptr_t seen = __atomic_load_n(&classes[i].pc, __ATOMIC_ACQUIRE);
    if (seen == pc)
      return classes[i].kind;
    if (!seen)
      break;
  }
  int kind = classify_slow(pc);
  pthread_mutex_lock(&class_lock);
  for (size_t i = h, n = 0; n < 16; i = (i + 1) & (CLASS_SLOTS - 1), n++)
    if (!classes[i].pc || classes[i].pc == pc) {
      classes[i].kind = kind;
      __atomic_store_n(&classes[i].pc, pc, __ATOMIC_RELEASE);
      break;
    }
  pthread_mutex_unlock(&class_lock);
  return kind;
}

/* The program's call into CUDA: the first frame that is not CUDA's own code. A short unwind
 * (libunwind's cached fast path) finds it in the usual case; a deep one only when needed. */
static gmemrt_where caller(void) {
  if (!gmemrt_opt.caller_sites)
    return (gmemrt_where){.file = "(all callers)", .line = 0}; /* one site per API */
  void *frames[64];
  for (int depth = 12;; depth = 64) {
    int n = unw_backtrace(frames, depth);
    for (int i = 1; i < n; i++)
      if (classify((uintptr_t)frames[i]) == FRAME_CALLER)
        return (gmemrt_where){.pc = (uintptr_t)frames[i], .ret = (uintptr_t)frames[i]};
    if (n < depth || depth == 64)
      return (gmemrt_where){.pc = n > 1 ? (uintptr_t)frames[n - 1] : 1, .ret = 0};
  }
}

/* ---- the calls ---- */

enum { CALL_NONE, CALL_ALLOC, CALL_FREE, CALL_COPY };
typedef struct call {
  int kind;
  const char *api;
  int family, free_api;
  void **out;         /* runtime allocations: where the pointer is written */
  CUdeviceptr *out_d; /* driver allocations */
  uint64_t *out_h;    /* cuMemCreate's handle */
  size_t *pitch;      /* pitched allocations: the size is pitch x height */
  uint64_t size, height;
  void *ptr; /* frees */
} call;

#define RT(name) CUPTI_RUNTIME_TRACE_CBID_##name
#define DRV(name) CUPTI_DRIVER_TRACE_CBID_##name
#define P(type) ((const type##_params *)params)

static int describe(int domain, unsigned id, const void *params, call *c) {
  memset(c, 0, sizeof *c);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (id) {
    case RT(cudaMalloc_v3020):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaMalloc",
                  .family = FAM_DEVICE,
                  .free_api = 0,
                  .out = P(cudaMalloc_v3020)->devPtr};
      c->size = P(cudaMalloc_v3020)->size;
      return 1;
    case RT(cudaMallocManaged_v6000):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaMallocManaged",
                  .family = FAM_MANAGED,
                  .free_api = 0,
                  .out = P(cudaMallocManaged_v6000)->devPtr};
      c->size = P(cudaMallocManaged_v6000)->size;
      return 1;
    case RT(cudaMallocHost_v3020):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaMallocHost",
                  .family = FAM_HOST,
                  .free_api = 0,
                  .out = P(cudaMallocHost_v3020)->ptr};
      c->size = P(cudaMallocHost_v3020)->size;
      return 1;
    case RT(cudaHostAlloc_v3020):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaHostAlloc",
                  .family = FAM_HOST,
                  .free_api = 0,
                  .out = P(cudaHostAlloc_v3020)->pHost};
      c->size = P(cudaHostAlloc_v3020)->size;
      return 1;
    case RT(cudaMallocPitch_v3020):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaMallocPitch",
                  .family = FAM_DEVICE,
                  .free_api = 0,
                  .out = P(cudaMallocPitch_v3020)->devPtr};
      c->pitch = P(cudaMallocPitch_v3020)->pitch;
      c->height = P(cudaMallocPitch_v3020)->height;
      c->size = P(cudaMallocPitch_v3020)->width * c->height;
      return 1;
    case RT(cudaMallocAsync_v11020):
    case RT(cudaMallocAsync_ptsz_v11020):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaMallocAsync",
                  .family = FAM_ASYNC,
                  .free_api = 0,
                  .out = P(cudaMallocAsync_v11020)->devPtr};
      c->size = P(cudaMallocAsync_v11020)->size;
      return 1;
    case RT(cudaMallocFromPoolAsync_v11020):
    case RT(cudaMallocFromPoolAsync_ptsz_v11020):
      *c = (call){.kind = CALL_ALLOC,
                  .api = "cudaMallocFromPoolAsync",
                  .family = FAM_ASYNC,
                  .free_api = 0,
                  .out = P(cudaMallocFromPoolAsync_v11020)->ptr};
      c->size = P(cudaMallocFromPoolAsync_v11020)->size;
      return 1;
    case RT(cudaFree_v3020):
      *c = (call){.kind = CALL_FREE, .api = "cudaFree", .family = -2, .free_api = FREE_CUDA};
      c->ptr = P(cudaFree_v3020)->devPtr;
      return 1;
    case RT(cudaFreeHost_v3020):
      *c = (call){.kind = CALL_FREE, .api = "cudaFreeHost", .family = -2, .free_api = FREE_HOST};
      c->ptr = P(cudaFreeHost_v3020)->ptr;
      return 1;
    case RT(cudaFreeAsync_v11020):
    case RT(cudaFreeAsync_ptsz_v11020):
      *c = (call){.kind = CALL_FREE, .api = "cudaFreeAsync", .family = -2, .free_api = FREE_ASYNC};
      c->ptr = P(cudaFreeAsync_v11020)->devPtr;
      return 1;
    case RT(cudaFreeArray_v3020):
      *c = (call){.kind = CALL_FREE, .api = "cudaFreeArray", .family = -2, .free_api = FREE_ARRAY};
      c->ptr = (void *)P(cudaFreeArray_v3020)->array;
      return 1;
    case RT(cudaMemcpy_v3020):
      *c = (call){.kind = CALL_COPY, .api = "cudaMemcpy", .family = -1};
      c->size = P(cudaMemcpy_v3020)->count;
      return 1;
    case RT(cudaMemcpyAsync_v3020):
    case RT(cudaMemcpyAsync_ptsz_v7000):
      *c = (call){.kind = CALL_COPY, .api = "cudaMemcpyAsync", .family = -1};
      c->size = P(cudaMemcpyAsync_v3020)->count;
      return 1;
    }
    return 0;
  }
  switch (id) {
  case DRV(cuMemAlloc_v2):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAlloc", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAlloc_v2)->dptr;
    c->size = P(cuMemAlloc_v2)->bytesize;
    return 1;
  case DRV(cuMemAllocPitch_v2):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocPitch", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocPitch_v2)->dptr;
    c->pitch = P(cuMemAllocPitch_v2)->pPitch;
    c->height = P(cuMemAllocPitch_v2)->Height;
    c->size = P(cuMemAllocPitch_v2)->WidthInBytes * c->height;
    return 1;
  case DRV(cuMemAllocManaged):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocManaged", .family = FAM_CU_MANAGED};
    c->out_d = P(cuMemAllocManaged)->dptr;
    c->size = P(cuMemAllocManaged)->bytesize;
    return 1;
  case DRV(cuMemAllocAsync):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocAsync", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocAsync)->dptr;
    c->size = P(cuMemAllocAsync)->bytesize;
    return 1;
  case DRV(cuMemAllocFromPoolAsync):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocFromPoolAsync", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocFromPoolAsync)->dptr;
    c->size = P(cuMemAllocFromPoolAsync)->bytesize;
    return 1;
  case DRV(cuMemAllocHost_v2):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cuMemAllocHost",
                .family = FAM_CU_HOST,
                .free_api = 0,
                .out = P(cuMemAllocHost_v2)->pp};
    c->size = P(cuMemAllocHost_v2)->bytesize;
    return 1;
  case DRV(cuMemHostAlloc):
    *c = (call){.kind = CALL_ALLOC,
                .api = "cuMemHostAlloc",
                .family = FAM_CU_HOST,
                .free_api = 0,
                .out = P(cuMemHostAlloc)->pp};
    c->size = P(cuMemHostAlloc)->bytesize;
    return 1;
  case DRV(cuMemCreate):
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemCreate", .family = FAM_CU_HANDLE};
    c->out_h = (uint64_t *)P(cuMemCreate)->handle;
    c->size = P(cuMemCreate)->size;
    return 1;
  case DRV(cuMemFree_v2):
    *c = (call){.kind = CALL_FREE, .api = "cuMemFree", .family = -2, .free_api = FREE_CU};
    c->ptr = (void *)(uintptr_t)P(cuMemFree_v2)->dptr;
    return 1;
  case DRV(cuMemFreeAsync):
    *c =
        (call){.kind = CALL_FREE, .api = "cuMemFreeAsync", .family = -2, .free_api = FREE_CU_ASYNC};
    c->ptr = (void *)(uintptr_t)P(cuMemFreeAsync)->dptr;
    return 1;
  case DRV(cuMemFreeHost):
    *c = (call){.kind = CALL_FREE, .api = "cuMemFreeHost", .family = -2, .free_api = FREE_CU_HOST};
    c->ptr = P(cuMemFreeHost)->p;
    return 1;
  case DRV(cuMemRelease):
    *c =
        (call){.kind = CALL_FREE, .api = "cuMemRelease", .family = -2, .free_api = FREE_CU_RELEASE};
    c->ptr = (void *)(uintptr_t)P(cuMemRelease)->handle;
    return 1;
  }
  return 0;
}

static const unsigned runtime_ids[] = {RT(cudaMalloc_v3020),
                                       RT(cudaMallocManaged_v6000),
                                       RT(cudaMallocHost_v3020),
                                       RT(cudaHostAlloc_v3020),
                                       RT(cudaMallocPitch_v3020),
                                       RT(cudaMallocAsync_v11020),
                                       RT(cudaMallocAsync_ptsz_v11020),
                                       RT(cudaMallocFromPoolAsync_v11020),
                                       RT(cudaMallocFromPoolAsync_ptsz_v11020),
                                       RT(cudaFree_v3020),
                                       RT(cudaFreeHost_v3020),
                                       RT(cudaFreeAsync_v11020),
                                       RT(cudaFreeAsync_ptsz_v11020),
                                       RT(cudaFreeArray_v3020),
                                       RT(cudaMemcpy_v3020),
                                       RT(cudaMemcpyAsync_v3020),
                                       RT(cudaMemcpyAsync_ptsz_v7000)};
static const unsigned driver_ids[] = {DRV(cuMemAlloc_v2),
                                      DRV(cuMemAllocPitch_v2),
                                      DRV(cuMemAllocManaged),
                                      DRV(cuMemAllocAsync),
                                      DRV(cuMemAllocFromPoolAsync),
                                      DRV(cuMemAllocHost_v2),
                                      DRV(cuMemHostAlloc),
                                      DRV(cuMemCreate),
                                      DRV(cuMemFree_v2),
                                      DRV(cuMemFreeAsync),
                                      DRV(cuMemFreeHost),
                                      DRV(cuMemRelease)};

/* Per thread: the runtime call being handled (its driver calls are not counted again), and the
 * free whose record waits for the real call's result. */
static __thread int runtime_depth, own_work;
static __thread struct {
  int site, was_live;
  struct live_entry saved;
  uint64_t t0;
} pending;
static int step_domain = -1;
static unsigned step_id;

static void on_api(void *data, int domain, unsigned id, const void *info) {
  (void)data;
  const CUpti_CallbackData *cb = info;
  if (own_work || !gmemrt_hooks_enabled())
    return;
  if (domain == step_domain && id == step_id) {
    if (cb->callbackSite == CUPTI_API_EXIT) {
      own_work++;
      gmemrt_step();
      own_work--;
    }
    return;
  }
  int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  if (!runtime && runtime_depth > 0)
    return; /* the runtime call's own use of the driver */
  call c;
  if (!describe(domain, id, cb->functionParams, &c))
    return;
  own_work++;
  if (cb->callbackSite == CUPTI_API_ENTER) {
    runtime_depth += runtime;
    if (c.kind == CALL_FREE) {
      gmemrt_where w = caller();
      gmemrt_before_free(&w, c.api, c.free_api, c.ptr, &pending.site, &pending.was_live,
                         &pending.saved, &pending.t0);
    } else {
      pending.t0 = c.kind == CALL_COPY ? gmemrt_now_ns() : gmemrt_start_clock();
    }
  } else {
    runtime_depth -= runtime && runtime_depth > 0;
    int rc = runtime ? (int)*(const cudaError_t *)cb->functionReturnValue
                     : (int)*(const CUresult *)cb->functionReturnValue;
    gmemrt_after_cuda_call();
    if (c.kind == CALL_FREE) {
      gmemrt_after_free(pending.site, pending.was_live, &pending.saved, rc == 0, pending.t0);
    } else if (c.kind == CALL_COPY) {
      gmemrt_where w = caller();
      uint64_t ns = gmemrt_now_ns() - pending.t0;
      pthread_mutex_lock(&gmemrt.lock);
      gmemrt_record_copy(gmemrt_site_for(&w, c.api, -1), c.size, ns);
      pthread_mutex_unlock(&gmemrt.lock);
    } else {
      void *ptr = NULL;
      if (rc == 0)
        ptr = c.out     ? *c.out
              : c.out_d ? (void *)(uintptr_t)*c.out_d
              : c.out_h ? (void *)(uintptr_t)*c.out_h
                        : NULL;
      uint64_t size = rc == 0 && c.pitch ? (uint64_t)*c.pitch * c.height : c.size;
      gmemrt_where w = caller();
      /* both APIs say out of memory with the value 2 */
      gmemrt_after_alloc(&w, c.api, c.family, rc == 0, rc == 2, ptr, size, pending.t0);
    }
  }
  own_work--;
}

/* GMEMRT_STEP_API=cudaDeviceSynchronize (say): each return from that CUDA function is a step. */
static void find_step_api(void) {
  const char *name = gmemrt_opt.step_api;
  if (!name || !*name)
    return;
  size_t len = strlen(name);
  static const struct {
    int domain;
    unsigned count;
  } domains[] = {{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE},
                 {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE}};
  for (size_t d = 0; d < 2; d++)
    for (unsigned id = 1; id < domains[d].count; id++) {
      const char *cb_name = gmemrt_cupti_callback_name(domains[d].domain, id);
      /* "cudaDeviceSynchronize_v3020" answers to "cudaDeviceSynchronize" */
      if (cb_name && strncmp(cb_name, name, len) == 0 &&
          (cb_name[len] == 0 || (cb_name[len] == '_' && cb_name[len + 1] == 'v'))) {
        if (gmemrt_cupti_enable_callback(domains[d].domain, id)) {
          step_domain = domains[d].domain;
          step_id = id;
          return;
        }
      }
    }
  gmemrt_warn("GMEMRT_STEP_API=%s names no CUDA API function CUPTI knows; no steps marked", name);
}

/* Where gmemrun reads why an injection failed. */
static void report_failure(const char *what) {
  const char *path = getenv("GMEMRUN_STATUS_FILE");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (f) {
    fputs(what, f);
    fclose(f);
  }
}

__attribute__((visibility("default"))) int InitializeInjection(void) {
  gmemrt_init();
  if (gmemrt_opt.disabled)
    return 1;
  if (!gmemrt_cupti_subscribed()) {
    /* without CUPTI no call is seen: say so and stop rather than write an empty report */
    const char *why = gmemrt_um_reason();
    report_failure(why);
    fprintf(stderr, "gmemrun: error: cannot attach: %s\n", why);
    if (getenv("GMEMRUN_STATUS_FILE"))
      _exit(3);
    return 0;
  }
  gmemrt_cupti_api_callback = on_api;
  int ok = 1;
  for (size_t i = 0; i < sizeof runtime_ids / sizeof runtime_ids[0]; i++)
    ok &= gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i]);
  for (size_t i = 0; i < sizeof driver_ids / sizeof driver_ids[0]; i++)
    ok &= gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i]);
  if (!ok)
    gmemrt_warn("CUPTI refused some API callbacks; those calls are not recorded");
  find_step_api();
  return 1;
}
