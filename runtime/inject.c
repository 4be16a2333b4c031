/* The injected runtime (gmemrun): the CUDA driver loads libgmemrt_inject.so named by
 * CUDA_INJECTION64_PATH and calls InitializeInjection; CUPTI's callback API then reports every
 * allocation, free and copy of the runtime and driver APIs, static cudart included, through the
 * same subscription the unified-memory counters use. Each call goes to the same hook bodies as
 * the other ways in; its site is the first frame of the caller outside CUDA's own code. The
 * runtime's own CUDA calls (free memory, probes, pools) go to the driver API, since the program
 * may carry its cudart statically, out of reach. */
#include "attach.h"
#include "gmemrt.h"
#include "hooks.h"
#include "imports.h"
#include "internal.h"
#include "pools.h"
#include "real.h"
#include "record.h"
#include "symbols.h"
#include "um.h"

#include <cuda.h>
#include <cupti.h>
#define UNW_LOCAL_ONLY /* this process's own stack: libunwind's faster local-only entry points */
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

enum { FRAME_UNKNOWN, FRAME_DRIVER, FRAME_RUNTIME, FRAME_OWN, FRAME_CALLER };
enum { CLASS_SLOTS = 8192 };
static struct {
  uintptr_t pc;
  int kind;
} classes[CLASS_SLOTS];
static pthread_mutex_t class_lock = PTHREAD_MUTEX_INITIALIZER;

static int starts(const char *s, const char *prefix) {
  return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The driver (libcuda, CUPTI, NVIDIA's libraries), the CUDA runtime (libcudart, or the one
 * linked statically into the program: functions cuda*, cu[A-Z]*, cudart:: and __cudart*, and the
 * C++ wrappers of cuda_runtime.h), this runtime, or the program. */
static int classify_slow(uintptr_t pc) {
  gmemrt_symbol sym;
  if (!gmemrt_symbolise(pc, &sym))
    return FRAME_CALLER;
  const char *mod = sym.module ? strrchr(sym.module, '/') : NULL;
  mod = mod ? mod + 1 : sym.module;
  const char *fn = sym.function;
  if (starts(mod, "libgmemrt"))
    return FRAME_OWN;
  if (mod && strstr(mod, "cudart"))
    return FRAME_RUNTIME;
  if (starts(mod, "libcuda") || starts(mod, "libcupti") || starts(mod, "libnvidia"))
    return FRAME_DRIVER;
  /* the static runtime's own functions are named libcudart_static_<hash> */
  if (starts(fn, "cuda") || starts(fn, "__cuda") || starts(fn, "_ZN6cudart") ||
      starts(fn, "__cudart") || starts(fn, "libcudart_static_") ||
      gmemrt_is_cuda_wrapper_name(fn) ||
      (fn && fn[0] == 'c' && fn[1] == 'u' && fn[2] >= 'A' && fn[2] <= 'Z'))
    return FRAME_RUNTIME;
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
 * (libunwind's cached fast path) finds it in the usual case; a deep one only when needed.
 * *via_runtime says whether the CUDA runtime stood between the program and this library;
 * *entry, which kind of CUDA code the program called (FRAME_DRIVER: the driver API itself);
 * *runtime_pc, the first frame in the CUDA runtime, if any. */
static gmemrt_where find_caller(int *via_runtime, int *entry, uintptr_t *runtime_pc) {
  *via_runtime = 0;
  *entry = FRAME_UNKNOWN;
  *runtime_pc = 0;
  /* as deep as the callers found so far needed, so that one walk usually suffices */
  static int depth_hint = 8;
  void *frames[64];
  for (int depth = __atomic_load_n(&depth_hint, __ATOMIC_RELAXED);; depth = 64) {
    int n = unw_backtrace(frames, depth);
    for (int i = 1; i < n; i++) {
      int kind = classify((uintptr_t)frames[i]);
      if (kind == FRAME_CALLER) {
        if (i + 2 > depth && i + 2 <= 64)
          __atomic_store_n(&depth_hint, i + 2, __ATOMIC_RELAXED);
        return (gmemrt_where){.pc = (uintptr_t)frames[i], .ret = (uintptr_t)frames[i]};
      }
      if (kind == FRAME_RUNTIME && !*via_runtime)
        *runtime_pc = (uintptr_t)frames[i];
      *via_runtime |= kind == FRAME_RUNTIME;
      if (kind != FRAME_OWN)
        *entry = kind;
    }
    if (n < depth || depth == 64)
      return (gmemrt_where){.pc = n > 1 ? (uintptr_t)frames[n - 1] : 1, .ret = 0};
  }
}
/* ---- the caller of a wrapped call, without walking the whole stack ----
 * A wrapper is called from a few places in the CUDA runtime, and from each place the way up to
 * the program is the same: the same return addresses, kept in the same stack slots relative to
 * the slot of the wrapper's own return address (slot0). The first call from a place is walked
 * with libunwind's cursor, which says where each frame's return address is kept; later calls
 * read those slots, and take the shortcut only when every runtime frame's return address is the
 * one seen before and the last is the program's code. One call in 1024 is unwound in full as
 * well, and a difference ends the shortcut for that place. */
enum { CHAIN_SLOTS = 256, CHAIN_FRAMES = 8, CHAIN_REACH = 512 /* words above slot0 */ };
enum { CHAIN_UNKNOWN, CHAIN_USABLE, CHAIN_UNUSABLE };
typedef struct chain {
  uintptr_t ra0; /* the wrapper's return address: published last */
  int state, frames, via_runtime;
  uintptr_t ra[CHAIN_FRAMES];   /* the CUDA frames' return addresses, ra[0] == ra0 */
  int offset[CHAIN_FRAMES + 1]; /* their slots, and the program's, in words above slot0 */
  uintptr_t last_caller;        /* the program's return address last found through it */
} chain;
static chain chains[CHAIN_SLOTS];
static pthread_mutex_t chain_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread unsigned chain_calls;

static inline size_t chain_slot(uintptr_t ra0) {
  return (size_t)((ra0 * 0x9E3779B97F4A7C15ULL) >> 56) & (CHAIN_SLOTS - 1);
}

static chain *find_chain(uintptr_t ra0) {
  size_t h = chain_slot(ra0);
  for (size_t i = h, n = 0; n < 8; i = (i + 1) & (CHAIN_SLOTS - 1), n++) {
    uintptr_t seen = __atomic_load_n(&chains[i].ra0, __ATOMIC_ACQUIRE);
    if (seen == ra0 || !seen)
      return &chains[i];
  }
  return NULL;
}

/* Walks the stack once with libunwind's cursor from here up to the program, noting where each
 * frame above the wrapper keeps its return address. */
static void learn_chain(chain *c, uintptr_t *slot0) {
  chain learnt = {.ra0 = *slot0, .state = CHAIN_UNUSABLE};
  unw_context_t context;
  unw_cursor_t cursor;
  int started = 0, frames = 0;
  if (unw_getcontext(&context) == 0 && unw_init_local(&cursor, &context) == 0) {
    for (int steps = 0; steps < 64 && unw_step(&cursor) > 0; steps++) {
      unw_word_t ip;
      unw_save_loc_t loc;
      if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0 ||
          unw_get_save_loc(&cursor, UNW_REG_IP, &loc) != 0 || loc.type != UNW_SLT_MEMORY)
        break;
      uintptr_t *slot = (uintptr_t *)loc.u.addr;
      started |= slot == slot0;
      if (!started)
        continue; /* this library's own frames */
      ptrdiff_t offset = slot - slot0;
      if (offset < 0 || offset >= CHAIN_REACH || *slot != (uintptr_t)ip)
        break;
      int kind = classify((uintptr_t)ip);
      if (kind == FRAME_CALLER) {
        learnt.frames = frames;
        learnt.offset[frames] = (int)offset;
        learnt.state = CHAIN_USABLE;
        break;
      }
      if (kind == FRAME_OWN || frames == CHAIN_FRAMES)
        break;
      learnt.via_runtime |= kind == FRAME_RUNTIME;
      learnt.ra[frames] = (uintptr_t)ip;
      learnt.offset[frames++] = (int)offset;
    }
  }
  uintptr_t ra0 = learnt.ra0;
  learnt.ra0 = 0; /* c->ra0 is still 0: it is published last, once the rest is in */
  *c = learnt;
  __atomic_store_n(&c->ra0, ra0, __ATOMIC_RELEASE);
}

/* The program's return address from its slot, when every runtime frame between holds the return
 * address learnt for it; else 0. */
static inline uintptr_t chain_program_pc(const chain *c, const uintptr_t *slot0) {
  for (int i = 0; i < c->frames; i++)
    if (slot0[c->offset[i]] != c->ra[i])
      return 0;
  return slot0[c->offset[c->frames]];
}

/* The program's call, through the shortcut; 0 when it does not apply. */
static int chain_caller(uintptr_t *slot0, int *via_runtime, gmemrt_where *where) {
  uintptr_t ra0 = *slot0;
  chain *c = find_chain(ra0);
  if (!c)
    return 0;
  if (__atomic_load_n(&c->ra0, __ATOMIC_ACQUIRE) != ra0) {
    pthread_mutex_lock(&chain_lock);
    if (c->ra0 == 0)
      learn_chain(c, slot0);
    pthread_mutex_unlock(&chain_lock);
    if (__atomic_load_n(&c->ra0, __ATOMIC_ACQUIRE) != ra0)
      return 0;
  }
  if (__atomic_load_n(&c->state, __ATOMIC_RELAXED) != CHAIN_USABLE)
    return 0;
  uintptr_t pc = chain_program_pc(c, slot0);
  if (!pc)
    return 0;
  if (pc != __atomic_load_n(&c->last_caller, __ATOMIC_RELAXED)) {
    if (classify(pc) != FRAME_CALLER)
      return 0;
    __atomic_store_n(&c->last_caller, pc, __ATOMIC_RELAXED);
  }
  if ((++chain_calls & 1023) == 0) {
    int full_via_runtime, entry;
    uintptr_t runtime_pc;
    if (find_caller(&full_via_runtime, &entry, &runtime_pc).pc != pc) {
      __atomic_store_n(&c->state, CHAIN_UNUSABLE, __ATOMIC_RELAXED);
      __atomic_add_fetch(&gmemrt_attach.shortcut_failures, 1, __ATOMIC_RELAXED);
      return 0;
    }
  }
  *via_runtime = c->via_runtime;
  *where = (gmemrt_where){.pc = pc, .ret = pc};
  return 1;
}

/* The program's call, without the shortcut's fast path: learning a place, further probes, a
 * new caller, the periodic full unwind, or no shortcut at all. */
static __attribute__((noinline)) gmemrt_where caller_slow(int *via_runtime, uintptr_t *slot0) {
  int entry;
  uintptr_t runtime_pc;
  if (!gmemrt_opt.caller_sites) {
    *via_runtime = 1; /* unknown: named as the runtime would call it */
    return (gmemrt_where){.file = "(all callers)", .line = 0}; /* one site per API */
  }
  gmemrt_where where;
  if (slot0 && chain_caller(slot0, via_runtime, &where))
    return where;
  return find_caller(via_runtime, &entry, &runtime_pc);
}

/* The program's call: through the shortcut from a wrapper (slot0: where its return address is
 * kept), else by unwinding. The common case, a place seen before and the same program call as
 * last time from it, is inline: the chain in its first slot, its frames checked, and no full
 * unwind due; anything else goes to caller_slow(). */
static inline __attribute__((always_inline)) gmemrt_where caller(int *via_runtime,
                                                                 uintptr_t *slot0) {
  if (slot0 && gmemrt_opt.caller_sites) {
    uintptr_t ra0 = *slot0;
    chain *c = &chains[chain_slot(ra0)];
    if (__atomic_load_n(&c->ra0, __ATOMIC_ACQUIRE) == ra0 &&
        __atomic_load_n(&c->state, __ATOMIC_RELAXED) == CHAIN_USABLE && (chain_calls + 1) & 1023) {
      uintptr_t pc = chain_program_pc(c, slot0);
      if (pc && pc == __atomic_load_n(&c->last_caller, __ATOMIC_RELAXED)) {
        chain_calls++;
        *via_runtime = c->via_runtime;
        return (gmemrt_where){.pc = pc, .ret = pc};
      }
    }
  }
  return caller_slow(via_runtime, slot0);
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

static int describe_runtime(unsigned id, const void *params, call *c) {
  memset(c, 0, sizeof *c);
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

/* Inlined into each wrapper, whose constant id leaves only its own case. */
static inline __attribute__((always_inline)) int describe_driver(unsigned id, const void *params,
                                                                 call *c) {
  memset(c, 0, sizeof *c);
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
  case DRV(cuMemAllocAsync_ptsz): /* the same parameters */
    *c = (call){.kind = CALL_ALLOC, .api = "cuMemAllocAsync", .family = FAM_CU_DEVICE};
    c->out_d = P(cuMemAllocAsync)->dptr;
    c->size = P(cuMemAllocAsync)->bytesize;
    return 1;
  case DRV(cuMemAllocFromPoolAsync):
  case DRV(cuMemAllocFromPoolAsync_ptsz):
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
  case DRV(cuMemFreeAsync_ptsz):
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

static int describe(int domain, unsigned id, const void *params, call *c) {
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API ? describe_runtime(id, params, c)
                                               : describe_driver(id, params, c);
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
                                      DRV(cuMemAllocAsync_ptsz),
                                      DRV(cuMemAllocFromPoolAsync),
                                      DRV(cuMemAllocFromPoolAsync_ptsz),
                                      DRV(cuMemAllocHost_v2),
                                      DRV(cuMemHostAlloc),
                                      DRV(cuMemCreate),
                                      DRV(cuMemFree_v2),
                                      DRV(cuMemFreeAsync),
                                      DRV(cuMemFreeAsync_ptsz),
                                      DRV(cuMemFreeHost),
                                      DRV(cuMemRelease)};

/* ---- the runtime's calls, handed over from callbacks to wrappers ----
 * cudart, static or shared, fetches the driver's entry points with cuGetProcAddress, after the
 * driver has loaded this library. The fetch's exit callback hands it a wrapper instead
 * (offer_wrapper), so that a runtime call costs a direct call and a short unwind rather than
 * four CUPTI dispatches (runtime and driver, entry and exit), which cost more than a
 * cudaMallocAsync pair itself (BENCHMARKS.md). A runtime API keeps its callbacks until one of its
 * calls has been seen to go through a wrapper, and loses them at that call's exit: a runtime that
 * reaches the driver another way stays watched. The driver domain's callbacks stay on for
 * programs calling the driver directly; inside a wrapper they return at once. */

enum { WRAP_SLOTS = 4 }; /* distinct entry points under one name: legacy and per-thread stream */
enum { NOT_NAMED = -1, NAMED_BY_MANY = -2 };
typedef struct wrap {
  const char *symbol; /* cuGetProcAddress's name for it */
  int version;        /* the CUDA version from which that name means this signature */
  unsigned id;        /* the driver callback id whose parameters the wrapper replays */
  void *wrappers[WRAP_SLOTS];
  void *real[WRAP_SLOTS];
  int named_as; /* the runtime API seen calling it, NOT_NAMED or NAMED_BY_MANY */
} wrap;

enum { RT_IDS = CUPTI_RUNTIME_TRACE_CBID_SIZE };
static unsigned char runtime_watched[RT_IDS]; /* callbacks on */
static unsigned char handing_over[RT_IDS];    /* to be turned off at the call's exit */
static signed char handed_to[RT_IDS];         /* the wrap index + 1 it was handed to */
static pthread_mutex_t hand_lock = PTHREAD_MUTEX_INITIALIZER;

enum { WRAP_COUNT = 10 };
static wrap wraps[WRAP_COUNT];

/* The name and family of each watched runtime API, by callback id: read once from describe(),
 * so that naming a wrapped call after its runtime API reads no parameters. */
static struct runtime_name {
  const char *api;
  int family, free_api;
} runtime_names[RT_IDS];

static void name_runtime_apis(void) {
  static const uint64_t no_params[16]; /* describe() reads them; nothing is kept */
  for (size_t i = 0; i < sizeof runtime_ids / sizeof runtime_ids[0]; i++) {
    call c;
    if (runtime_ids[i] < RT_IDS &&
        describe(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i], no_params, &c))
      runtime_names[runtime_ids[i]] = (struct runtime_name){c.api, c.family, c.free_api};
  }
}

static int same_api(unsigned a, unsigned b) {
  return a < RT_IDS && b < RT_IDS && runtime_names[a].api && runtime_names[b].api &&
         strcmp(runtime_names[a].api, runtime_names[b].api) == 0;
}

/* A driver call the runtime made for runtime API named_as: recorded under that API's name and
 * family (cudaMallocAsync, freed by cudaFreeAsync), as the program wrote it. */
static void name_after_runtime(call *c, int named_as) {
  if (named_as >= 0 && named_as < RT_IDS && runtime_names[named_as].api) {
    c->api = runtime_names[named_as].api;
    c->family = runtime_names[named_as].family;
    c->free_api = runtime_names[named_as].free_api;
  }
}

/* Every runtime API handed to wrap index: its callbacks back on (lock held). */
static void give_back(size_t index) {
  wraps[index].named_as = NAMED_BY_MANY;
  for (unsigned r = 0; r < RT_IDS; r++)
    if (handed_to[r] == (signed char)(index + 1)) {
      handed_to[r] = 0;
      handing_over[r] = 0;
      if (!runtime_watched[r] && gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, r, 1))
        runtime_watched[r] = 1;
    }
}

/* Runtime API runtime_id was seen calling wrap index. */
static void learn(size_t index, unsigned runtime_id) {
  wrap *w = &wraps[index];
  int named = __atomic_load_n(&w->named_as, __ATOMIC_RELAXED);
  if (named == (int)runtime_id || named == NAMED_BY_MANY || runtime_id >= RT_IDS)
    return;
  pthread_mutex_lock(&hand_lock);
  int other = handed_to[runtime_id] - 1;
  if (other >= 0 && (size_t)other != index) {
    /* one runtime call through two wrapped functions: the wrappers would count it twice */
    give_back((size_t)other);
    give_back(index);
  } else if (w->named_as == NOT_NAMED ||
             (w->named_as >= 0 && same_api((unsigned)w->named_as, runtime_id))) {
    if (w->named_as == NOT_NAMED)
      __atomic_store_n(&w->named_as, (int)runtime_id, __ATOMIC_RELAXED);
    handed_to[runtime_id] = (signed char)(index + 1);
    handing_over[runtime_id] = 1;
  } else if (w->named_as >= 0) {
    give_back(index); /* two runtime APIs share this driver function: callbacks name them */
  }
  pthread_mutex_unlock(&hand_lock);
}

static void hand_over_if_learned(unsigned runtime_id) {
  if (runtime_id >= RT_IDS || !__atomic_load_n(&handing_over[runtime_id], __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock(&hand_lock);
  if (handing_over[runtime_id] && runtime_watched[runtime_id]) {
    handing_over[runtime_id] = 0;
    __atomic_store_n(&runtime_watched[runtime_id], 0, __ATOMIC_RELAXED);
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_id, 0);
    const char *api = runtime_names[runtime_id].api;
    int known = !api;
    for (int i = 0; api && i < gmemrt_attach.nhanded_over; i++)
      known |= strcmp(gmemrt_attach.handed_over[i], api) == 0;
    if (!known && gmemrt_attach.nhanded_over < MAX_HANDED_OVER)
      gmemrt_attach.handed_over[gmemrt_attach.nhanded_over++] = api;
  }
  pthread_mutex_unlock(&hand_lock);
}

static void offer_wrapper(const char *symbol, void **pfn, int version);
static void read_new_objects(void);
static void on_cu_init(void);

gmemrt_attach_facts gmemrt_attach;

/* Per thread: the runtime call being handled (its driver calls are not counted again), a call
 * a wrapper (below) is handling, and the free whose record waits for the real call's result. */
static __thread int runtime_depth, own_work, in_wrapper;
static __thread struct { unsigned id; } runtime_call;
static __thread unsigned driver_call; /* the driver call whose entry was recorded */
static __thread gmemrt_free_in_flight pending;
/* Wrapper calls are counted per thread and added to gmemrt_attach in batches, and when the
 * thread exits: a shared counter bumped on every call costs a locked instruction per call. */
enum { WRAPPER_CALLS_BATCH = 256 };
static __thread unsigned unflushed_wrapper_calls;
static __thread int wrapper_calls_flushed_at_exit;
static pthread_key_t thread_exit_key;
static pthread_once_t thread_exit_key_once = PTHREAD_ONCE_INIT;

static void flush_wrapper_calls(void *unused) {
  (void)unused;
  __atomic_add_fetch(&gmemrt_attach.wrapper_calls, unflushed_wrapper_calls, __ATOMIC_RELAXED);
  unflushed_wrapper_calls = 0;
}
static void make_thread_exit_key(void) {
  pthread_key_create(&thread_exit_key, flush_wrapper_calls);
}
/* A thread's first wrapped call arranges for its last batch to be added when it exits. */
static __attribute__((noinline)) void flush_wrapper_calls_at_exit(void) {
  wrapper_calls_flushed_at_exit = 1;
  pthread_once(&thread_exit_key_once, make_thread_exit_key);
  pthread_setspecific(thread_exit_key, &wrapper_calls_flushed_at_exit); /* non-NULL: called */
}
uint64_t gmemrt_attach_wrapper_calls(void) {
  return __atomic_load_n(&gmemrt_attach.wrapper_calls, __ATOMIC_RELAXED) + unflushed_wrapper_calls;
}
static int step_domain = -1;
static unsigned step_id;

/* One traced call (described: c), entered or returned from, as CUPTI reports it or a wrapper
 * replays it.
 * named_as >= 0: a driver call the runtime makes for that runtime API, recorded under the
 * runtime API's name when the stack shows the runtime in between (always, with named_always). */
static inline __attribute__((always_inline)) void record_call(call *c, int runtime, int exit,
                                                              int rc, int named_as,
                                                              int named_always, uintptr_t *slot0) {
  own_work++;
  int via_runtime;
  gmemrt_where w;
  if (!exit) {
    runtime_depth += runtime;
    if (c->kind == CALL_FREE) {
      w = caller(&via_runtime, slot0);
      name_after_runtime(c, via_runtime || named_always ? named_as : NOT_NAMED);
      gmemrt_before_free(&w, c->api, c->free_api, c->ptr, &pending);
    } else {
      pending.t0 = c->kind == CALL_COPY ? gmemrt_now_ns() : gmemrt_start_clock();
    }
  } else {
    runtime_depth -= runtime && runtime_depth > 0;
    gmemrt_after_cuda_call();
    if (c->kind == CALL_FREE) {
      gmemrt_after_free(&pending, rc == 0);
    } else if (c->kind == CALL_COPY) {
      w = caller(&via_runtime, slot0);
      uint64_t ns = gmemrt_now_ns() - pending.t0;
      gmemrt_lock();
      gmemrt_record_copy(gmemrt_site_for(&w, c->api, -1), c->size, ns);
      gmemrt_unlock();
    } else {
      void *ptr = NULL;
      if (rc == 0)
        ptr = c->out     ? *c->out
              : c->out_d ? (void *)(uintptr_t)*c->out_d
              : c->out_h ? (void *)(uintptr_t)*c->out_h
                         : NULL;
      uint64_t size = rc == 0 && c->pitch ? (uint64_t)*c->pitch * c->height : c->size;
      w = caller(&via_runtime, slot0);
      name_after_runtime(c, via_runtime || named_always ? named_as : NOT_NAMED);
      /* both APIs say out of memory with the value 2 */
      gmemrt_after_alloc(&w, c->api, c->family, rc == 0, rc == 2, ptr, size, pending.t0);
    }
  }
  own_work--;
}

static void on_api(void *data, int domain, unsigned id, const void *info) {
  (void)data;
  const CUpti_CallbackData *cb = info;
  if (own_work || !gmemrt_hooks_enabled())
    return;
  int exit = cb->callbackSite == CUPTI_API_EXIT;
  if (domain == step_domain && id == step_id) {
    if (exit) {
      own_work++;
      gmemrt_step();
      own_work--;
    }
    return;
  }
  int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  if (!runtime && (id == DRV(cuGetProcAddress_v2) || id == DRV(cuGetProcAddress))) {
    const void *params = cb->functionParams; /* _v2's parameters begin with the same fields */
    if (exit && *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
      offer_wrapper(P(cuGetProcAddress)->symbol, P(cuGetProcAddress)->pfn,
                    P(cuGetProcAddress)->cudaVersion);
      read_new_objects();
    }
    return;
  }
  if (!runtime && id == DRV(cuInit)) {
    if (!exit) {
      own_work++;
      on_cu_init();
      read_new_objects();
      own_work--;
    }
    return;
  }
  if (!runtime && (runtime_depth > 0 || in_wrapper))
    return; /* the runtime call's own use of the driver, or a wrapper's real call */
  if (runtime && exit && runtime_call.id != id)
    return; /* its callbacks came back on while it ran: a wrapper recorded it */
  if (!runtime && exit && driver_call != id)
    return; /* its callbacks were turned on while it ran */
  if (runtime && !exit)
    runtime_call.id = id;
  if (!runtime)
    driver_call = exit ? 0 : id;
  int rc = runtime ? (int)*(const cudaError_t *)cb->functionReturnValue
                   : (int)*(const CUresult *)cb->functionReturnValue;
  call c;
  if (describe(domain, id, cb->functionParams, &c))
    record_call(&c, runtime, exit, rc, NOT_NAMED, 0, NULL);
  if (runtime && exit) {
    runtime_call.id = 0;
    hand_over_if_learned(id);
  }
}

/* What a wrapper does around the real call: leave it to the runtime API's callbacks, record it
 * itself, or finish a runtime call whose callbacks were turned off after it entered. */
enum { WRAP_PASS, WRAP_WATCH, WRAP_FINISH };

/* c: the call described once for its entry and exit (the wrapper's frame holds it). Inlined
 * into each wrapper with its constant callback id (id), so describing it takes no switch. */
static inline __attribute__((always_inline)) int
wrap_enter(size_t index, unsigned id, const void *params, uintptr_t *slot0, call *c) {
  /* InitializeInjection, which made the wrappers, ran gmemrt_init(): only failure is left */
  if (own_work || __atomic_load_n(&gmemrt.broken, __ATOMIC_RELAXED))
    return WRAP_PASS;
  if (gmemrt_objects_loaded_since_scan()) {
    own_work++;
    read_new_objects();
    own_work--;
  }
  if (runtime_depth > 0) {
    unsigned id = runtime_call.id;
    if (id < RT_IDS && __atomic_load_n(&runtime_watched[id], __ATOMIC_RELAXED)) {
      learn(index, id);
      return WRAP_PASS;
    }
    return WRAP_FINISH;
  }
  if (!describe_driver(id, params, c))
    return WRAP_PASS;
  in_wrapper++;
  if (!wrapper_calls_flushed_at_exit)
    flush_wrapper_calls_at_exit();
  if (++unflushed_wrapper_calls == WRAPPER_CALLS_BATCH) {
    __atomic_add_fetch(&gmemrt_attach.wrapper_calls, WRAPPER_CALLS_BATCH, __ATOMIC_RELAXED);
    unflushed_wrapper_calls = 0;
  }
  record_call(c, 0, 0, 0, __atomic_load_n(&wraps[index].named_as, __ATOMIC_RELAXED), 0, slot0);
  return WRAP_WATCH;
}

static inline __attribute__((always_inline)) void wrap_exit(size_t index, unsigned id, int how,
                                                            const void *params, call *c,
                                                            CUresult rc, uintptr_t *slot0) {
  if (how == WRAP_WATCH) {
    in_wrapper--;
    record_call(c, 0, 1, (int)rc, __atomic_load_n(&wraps[index].named_as, __ATOMIC_RELAXED), 0,
                slot0);
  } else if (how == WRAP_FINISH) {
    /* the runtime's entry was recorded; the result is the driver's (the runtime has not yet
     * written its own outputs) */
    int named = (int)runtime_call.id;
    runtime_call.id = 0;
    runtime_depth--;
    if (describe_driver(id, params, c))
      record_call(c, 0, 1, (int)rc, named, 1, slot0);
  }
}

/* slot0: where the wrapper's return address is kept (above the saved frame pointer), for the
 * caller shortcut; NULL where the frame does not look so. */
#define WRAPPER(index, fn, slot, params, args)                                                     \
  static CUresult fn##_##slot params {                                                             \
    uintptr_t *slot0 = (uintptr_t *)__builtin_frame_address(0) + 1;                                \
    if (*slot0 != (uintptr_t)__builtin_return_address(0))                                          \
      slot0 = NULL;                                                                                \
    fn##_params replayed = {GMEMRT_UNPAREN args};                                                  \
    call described;                                                                                \
    int how = wrap_enter(index, DRV(fn), &replayed, slot0, &described);                            \
    CUresult rc = ((CUresult(*) params)wraps[index].real[slot])(GMEMRT_UNPAREN args);              \
    wrap_exit(index, DRV(fn), how, &replayed, &described, rc, slot0);                              \
    return rc;                                                                                     \
  }
#define WRAPPERS(index, fn, params, args)                                                          \
  WRAPPER(index, fn, 0, params, args)                                                              \
  WRAPPER(index, fn, 1, params, args)                                                              \
  WRAPPER(index, fn, 2, params, args)                                                              \
  WRAPPER(index, fn, 3, params, args)
#define WRAP(fn, symbol, version)                                                                  \
  { symbol, version, DRV(fn), {fn##_0, fn##_1, fn##_2, fn##_3}, {0}, NOT_NAMED }

WRAPPERS(0, cuMemAlloc_v2, (CUdeviceptr * dptr, size_t bytesize), (dptr, bytesize))
WRAPPERS(1, cuMemFree_v2, (CUdeviceptr dptr), (dptr))
WRAPPERS(2, cuMemAllocAsync, (CUdeviceptr * dptr, size_t bytesize, CUstream hStream),
         (dptr, bytesize, hStream))
WRAPPERS(3, cuMemFreeAsync, (CUdeviceptr dptr, CUstream hStream), (dptr, hStream))
WRAPPERS(4, cuMemAllocFromPoolAsync,
         (CUdeviceptr * dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream),
         (dptr, bytesize, pool, hStream))
WRAPPERS(5, cuMemAllocManaged, (CUdeviceptr * dptr, size_t bytesize, unsigned int flags),
         (dptr, bytesize, flags))
WRAPPERS(6, cuMemAllocHost_v2, (void **pp, size_t bytesize), (pp, bytesize))
WRAPPERS(7, cuMemHostAlloc, (void **pp, size_t bytesize, unsigned int Flags), (pp, bytesize, Flags))
WRAPPERS(8, cuMemFreeHost, (void *p), (p))
WRAPPERS(9, cuMemAllocPitch_v2,
         (CUdeviceptr * dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
          unsigned int ElementSizeBytes),
         (dptr, pPitch, WidthInBytes, Height, ElementSizeBytes))

static wrap wraps[WRAP_COUNT] = {
    WRAP(cuMemAlloc_v2, "cuMemAlloc", 3020),
    WRAP(cuMemFree_v2, "cuMemFree", 3020),
    WRAP(cuMemAllocAsync, "cuMemAllocAsync", 11020),
    WRAP(cuMemFreeAsync, "cuMemFreeAsync", 11020),
    WRAP(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync", 11020),
    WRAP(cuMemAllocManaged, "cuMemAllocManaged", 6000),
    WRAP(cuMemAllocHost_v2, "cuMemAllocHost", 3020),
    WRAP(cuMemHostAlloc, "cuMemHostAlloc", 2020),
    WRAP(cuMemFreeHost, "cuMemFreeHost", 2000),
    WRAP(cuMemAllocPitch_v2, "cuMemAllocPitch", 3020),
};

/* The wrapper of real function `real` under wrap index, taking a free slot for a function not
 * seen before; NULL when real is already a wrapper, or when no slot is left (then no runtime API
 * is left to wrappers of that name). */
static void *wrapper_for(size_t index, void *real) {
  wrap *w = &wraps[index];
  void *wrapper = NULL;
  pthread_mutex_lock(&hand_lock);
  size_t slot = 0;
  while (slot < WRAP_SLOTS && w->real[slot] && w->real[slot] != real && w->wrappers[slot] != real)
    slot++;
  if (slot == WRAP_SLOTS) {
    give_back(index);
  } else if (w->wrappers[slot] != real) {
    if (!w->real[slot])
      __atomic_store_n(&w->real[slot], real, __ATOMIC_RELEASE);
    wrapper = w->wrappers[slot];
  }
  pthread_mutex_unlock(&hand_lock);
  return wrapper;
}

/* A fetch of a driver entry point: hand back the wrapper of that real function. */
static void offer_wrapper(const char *symbol, void **pfn, int version) {
  if (!gmemrt_opt.entry_wrappers || !symbol || !pfn || !*pfn)
    return;
  for (size_t i = 0; i < WRAP_COUNT; i++)
    if (strcmp(symbol, wraps[i].symbol) == 0 && version >= wraps[i].version) {
      void *wrapper = wrapper_for(i, *pfn);
      if (wrapper) {
        *pfn = wrapper;
        __atomic_add_fetch(&gmemrt_attach.entry_points_wrapped, 1, __ATOMIC_RELAXED);
      }
      return;
    }
}

/* ---- entry points the runtime fetched before this library came ----
 * cudart fetches all its driver entry points with cuGetProcAddress and only then calls cuInit,
 * in which the driver loads this library: those fetches are never seen. cudart keeps them in its
 * own data, so the words there equal to a wrapped function's address are its pointers to that
 * function, and each is swapped for the wrapper in place (one aligned store: a thread reading it
 * meanwhile gets one or the other, and both call the driver). As with fetches seen, a runtime
 * API goes over to the wrapper only once one of its calls is seen going through it. */
enum { MAX_ENTRY_VALUES = WRAP_COUNT * 8 };
typedef struct entry_values {
  uintptr_t value[MAX_ENTRY_VALUES];
  size_t wrap_index[MAX_ENTRY_VALUES];
  size_t count;
} entry_values;

static void add_entry_value(entry_values *v, void *address, size_t index) {
  if (!address || v->count == MAX_ENTRY_VALUES)
    return;
  for (size_t k = 0; k < v->count; k++)
    if (v->value[k] == (uintptr_t)address)
      return;
  v->value[v->count] = (uintptr_t)address;
  v->wrap_index[v->count++] = index;
}

/* The driver's addresses of the wrapped functions: as cuGetProcAddress hands them out (legacy and
 * per-thread default stream) and as libcuda exports them. */
static void driver_entry_values(entry_values *v) {
  CUresult (*get)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
  CUresult (*driver_version)(int *);
  *(void **)&get = gmemrt_driver_sym("cuGetProcAddress_v2");
  *(void **)&driver_version = gmemrt_driver_sym("cuDriverGetVersion");
  int newest = CUDA_VERSION;
  if (driver_version)
    driver_version(&newest);
  static const cuuint64_t flags[] = {CU_GET_PROC_ADDRESS_DEFAULT, CU_GET_PROC_ADDRESS_LEGACY_STREAM,
                                     CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM};
  for (size_t i = 0; i < WRAP_COUNT; i++) {
    const int versions[] = {wraps[i].version, newest};
    for (size_t f = 0; get && f < sizeof flags / sizeof flags[0]; f++)
      for (size_t k = 0; k < 2; k++) {
        void *p = NULL;
        CUdriverProcAddressQueryResult status;
        if (get(wraps[i].symbol, &p, versions[k], flags[f], &status) == CUDA_SUCCESS)
          add_entry_value(v, p, i);
      }
    /* the exported names are the callbacks' names, with _ptsz for per-thread streams */
    const char *name = gmemrt_cupti_callback_name(CUPTI_CB_DOMAIN_DRIVER_API, wraps[i].id);
    char ptsz[128];
    if (name) {
      add_entry_value(v, gmemrt_driver_sym(name), i);
      snprintf(ptsz, sizeof ptsz, "%s_ptsz", name);
      add_entry_value(v, gmemrt_driver_sym(ptsz), i);
    }
  }
}

static void adopt_word(uintptr_t *word, size_t which, void *ctx) {
  const entry_values *v = ctx;
  void *wrapper = wrapper_for(v->wrap_index[which], (void *)v->value[which]);
  uintptr_t expected = v->value[which];
  if (wrapper && __atomic_compare_exchange_n(word, &expected, (uintptr_t)wrapper, 0,
                                             __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    __atomic_add_fetch(&gmemrt_attach.entry_points_adopted, 1, __ATOMIC_RELAXED);
}

/* The driver entry points kept in the data of the object holding pc: wrapped in place. */
static void adopt_fetched_entries(uintptr_t pc) {
  static entry_values values; /* the driver's addresses do not change: read once */
  static pthread_mutex_t values_lock = PTHREAD_MUTEX_INITIALIZER;
  if (!gmemrt_opt.entry_wrappers || pc <= 1)
    return;
  pthread_mutex_lock(&values_lock);
  if (!values.count)
    driver_entry_values(&values);
  uint64_t before = gmemrt_attach.entry_points_adopted;
  const char *object = gmemrt_find_words(pc, values.value, values.count, adopt_word, &values);
  if (object && gmemrt_attach.entry_points_adopted > before && !gmemrt_attach.adopted_in) {
    static char name[512];
    snprintf(name, sizeof name, "%s", *object ? object : "the program");
    gmemrt_attach.adopted_in = name;
  }
  pthread_mutex_unlock(&values_lock);
}

/* ---- when the driver's own callbacks are needed ----
 * The wrappers see every call through an entry point fetched with cuGetProcAddress: the CUDA
 * runtime's, and the program's own fetches. A program that calls the driver's allocating
 * functions otherwise (linked against them, or through dlsym as TensorFlow, JAX and Numba load
 * libcuda) needs CUPTI's driver callbacks on them, which cost as much as the runtime's did. They
 * are turned on, for good, when a loaded object links one of them (objects loaded later are
 * read when the link map grows) or when something other than the CUDA runtime calls cuInit, as
 * every direct user of the driver must. */
static const char *const direct_symbols[] = {
    "cuMemAlloc_v2",           "cuMemFree_v2",
    "cuMemAllocAsync",         "cuMemAllocAsync_ptsz",
    "cuMemFreeAsync",          "cuMemFreeAsync_ptsz",
    "cuMemAllocFromPoolAsync", "cuMemAllocFromPoolAsync_ptsz",
    "cuMemAllocManaged",       "cuMemAllocHost_v2",
    "cuMemHostAlloc",          "cuMemFreeHost",
    "cuMemAllocPitch_v2"};
static const unsigned direct_ids[] = {
    DRV(cuMemAlloc_v2),           DRV(cuMemFree_v2),
    DRV(cuMemAllocAsync),         DRV(cuMemAllocAsync_ptsz),
    DRV(cuMemFreeAsync),          DRV(cuMemFreeAsync_ptsz),
    DRV(cuMemAllocFromPoolAsync), DRV(cuMemAllocFromPoolAsync_ptsz),
    DRV(cuMemAllocManaged),       DRV(cuMemAllocHost_v2),
    DRV(cuMemHostAlloc),          DRV(cuMemFreeHost),
    DRV(cuMemAllocPitch_v2)};
enum { DIRECT_COUNT = sizeof direct_ids / sizeof direct_ids[0] };
static int driver_watched;
static char driver_reason[512];

static void watch_driver_calls(void) {
  pthread_mutex_lock(&hand_lock);
  if (!driver_watched) {
    for (size_t i = 0; i < DIRECT_COUNT; i++)
      gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, direct_ids[i], 1);
    gmemrt_attach.driver_callbacks = driver_reason;
    __atomic_store_n(&driver_watched, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&hand_lock);
}

/* Objects loaded since the last look that link a driver allocation function. */
static void read_new_objects(void) {
  if (__atomic_load_n(&driver_watched, __ATOMIC_ACQUIRE) || !gmemrt_objects_loaded_since_scan())
    return;
  const char *importer[DIRECT_COUNT] = {0};
  pthread_mutex_lock(&hand_lock);
  gmemrt_scan_imports(direct_symbols, DIRECT_COUNT, importer);
  for (size_t i = 0; i < DIRECT_COUNT && !driver_reason[0]; i++)
    if (importer[i])
      snprintf(driver_reason, sizeof driver_reason, "%s links %s",
               *importer[i] ? importer[i] : "the program", direct_symbols[i]);
  pthread_mutex_unlock(&hand_lock);
  if (driver_reason[0])
    watch_driver_calls();
}

/* A call of cuInit (or the one the driver loaded this library in). Its caller's fetched entry
 * points are wrapped in place; and a call made by the program itself rather than through the
 * CUDA runtime turns the driver's callbacks on. */
static void on_cu_init(void) {
  int via_runtime, entry;
  uintptr_t runtime_pc;
  gmemrt_where w = find_caller(&via_runtime, &entry, &runtime_pc);
  adopt_fetched_entries(runtime_pc ? runtime_pc : w.pc);
  if (entry != FRAME_DRIVER || __atomic_load_n(&driver_watched, __ATOMIC_ACQUIRE))
    return;
  gmemrt_symbol sym;
  pthread_mutex_lock(&hand_lock);
  if (!driver_reason[0]) {
    if (w.pc > 1 && gmemrt_symbolise(w.pc, &sym))
      snprintf(driver_reason, sizeof driver_reason, "cuInit called by %s (%s)",
               sym.function ? sym.function : "?", sym.module ? sym.module : "?");
    else
      snprintf(driver_reason, sizeof driver_reason, "cuInit called outside the CUDA runtime");
  }
  pthread_mutex_unlock(&hand_lock);
  watch_driver_calls();
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
        if (gmemrt_cupti_enable_callback(domains[d].domain, id, 1)) {
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
  name_runtime_apis();
  gmemrt_cupti_api_callback = on_api;
  int ok = 1;
  for (size_t i = 0; i < sizeof runtime_ids / sizeof runtime_ids[0]; i++)
    if (gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_ids[i], 1))
      runtime_watched[runtime_ids[i]] = 1;
    else
      ok = 0;
  for (size_t i = 0; i < sizeof driver_ids / sizeof driver_ids[0]; i++) {
    int direct = 0; /* with wrappers, the allocation functions' callbacks wait for a reason */
    for (size_t k = 0; k < DIRECT_COUNT; k++)
      direct |= driver_ids[i] == direct_ids[k];
    if (!direct || !gmemrt_opt.entry_wrappers)
      ok &= gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, driver_ids[i], 1);
  }
  if (gmemrt_opt.entry_wrappers) {
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, DRV(cuGetProcAddress_v2), 1);
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, DRV(cuGetProcAddress), 1);
    gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_DRIVER_API, DRV(cuInit), 1);
    own_work++;
    on_cu_init(); /* the driver calls this from inside the first cuInit */
    read_new_objects();
    own_work--;
  } else {
    snprintf(driver_reason, sizeof driver_reason, "GMEMRT_ENTRY_WRAPPERS=0");
    gmemrt_attach.driver_callbacks = driver_reason;
  }
  if (!ok)
    gmemrt_warn("CUPTI refused some API callbacks; those calls are not recorded");
  find_step_api();
  return 1;
}
