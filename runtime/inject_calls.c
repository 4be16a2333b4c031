/* How the program's allocations, frees and copies reach the hook bodies in the injected runtime:
 * through CUPTI's API callbacks, or through the wrappers handed out for the driver's entry
 * points, and the hand-over of each runtime API from the one to the other. */
#include "inject.h"
#include "attach.h"
#include "gmemrt.h"
#include "hooks.h"
#include "imports.h"
#include "inject_caller.h"
#include "inject_describe.h"
#include "internal.h"
#include "pairs.h"
#include "phases.h"
#include "pools.h"
#include "record.h"
#include "um.h"

#include <cuda.h>
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

/* ---- the runtime's calls, handed over from callbacks to wrappers ----
 * cudart, static or shared, fetches the driver's entry points with cuGetProcAddress, after the
 * driver has loaded this library. The fetch's exit callback hands it a wrapper instead
 * (offer_wrapper), so that a runtime call costs a direct call and a short unwind rather than
 * four CUPTI dispatches (runtime and driver, entry and exit), which cost more than a
 * cudaMallocAsync pair itself (BENCHMARKS.md). A runtime API keeps its callbacks until one of its
 * calls has been seen to go through a wrapper, and loses them at that call's exit: a runtime that
 * reaches the driver another way stays watched. The driver domain's callbacks stay on for
 * programs calling the driver directly; inside a wrapper they return at once.
 * A call of a watched API whose wrapper leaves its exit to the callback (WRAP_PASS) is owed that
 * exit: the callbacks go off only once no such call is running (another thread's may be), or its
 * exit would never come and its thread would take its next wrapped call for that call's end. */

unsigned char runtime_watched[RT_IDS];         /* calls recorded by callbacks (they are on) */
static unsigned char handing_over[RT_IDS];     /* to be turned off at the call's exit */
static signed char handed_to[RT_IDS];          /* the wrap index + 1 it was handed to */
static unsigned owed_exits[RT_IDS];            /* calls left to their exit callback, running */
static unsigned char off_when_settled[RT_IDS]; /* handed over: callbacks off at owed_exits 0 */
static __thread unsigned owed_call;            /* this thread's call counted in owed_exits */
pthread_mutex_t hand_lock = PTHREAD_MUTEX_INITIALIZER;

/* runtime_id's callbacks off, its calls handed over (lock held). */
static void callbacks_off(unsigned runtime_id) {
  off_when_settled[runtime_id] = 0;
  gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, runtime_id, 0);
}

/* A call owed its exit callback got it, or its wrapper found the API no longer watched: the last
 * one turns the callbacks off when a hand-over waits. Sequentially consistent against
 * hand_over_if_learned's stores and load: one of the two sees the other. */
static void settle_owed(unsigned runtime_id) {
  if (__atomic_sub_fetch(&owed_exits[runtime_id], 1, __ATOMIC_SEQ_CST) == 0 &&
      __atomic_load_n(&off_when_settled[runtime_id], __ATOMIC_SEQ_CST)) {
    pthread_mutex_lock(&hand_lock);
    if (off_when_settled[runtime_id] && !__atomic_load_n(&owed_exits[runtime_id], __ATOMIC_SEQ_CST))
      callbacks_off(runtime_id);
    pthread_mutex_unlock(&hand_lock);
  }
}

/* Whether this thread's recorded call of runtime_id may leave its exit to the callback: only while
 * the API is watched, and then counted, so that its callbacks stay on until that exit. Counted
 * before the check (Dekker-style against hand_over_if_learned): a hand-over either sees the count
 * or has already cleared runtime_watched, and then the wrapper finishes the call itself. */
static int owe_exit(unsigned runtime_id) {
  __atomic_add_fetch(&owed_exits[runtime_id], 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&runtime_watched[runtime_id], __ATOMIC_SEQ_CST)) {
    owed_call = runtime_id;
    return 1;
  }
  settle_owed(runtime_id);
  return 0;
}

/* The name and family of each watched runtime API, by callback id: read once from describe(),
 * so that naming a wrapped call after its runtime API reads no parameters. */
static struct runtime_name {
  const char *api;
  int family, free_api;
} runtime_names[RT_IDS];

void name_runtime_apis(void) {
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
      off_when_settled[r] = 0; /* a hand-over waiting for owed exits is called off */
      if (!runtime_watched[r] && gmemrt_cupti_enable_callback(CUPTI_CB_DOMAIN_RUNTIME_API, r, 1))
        __atomic_store_n(&runtime_watched[r], 1, __ATOMIC_SEQ_CST);
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
    /* wrappers finish the calls entered from here on; the callbacks wait for those owed exits */
    __atomic_store_n(&runtime_watched[runtime_id], 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&off_when_settled[runtime_id], 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&owed_exits[runtime_id], __ATOMIC_SEQ_CST))
      callbacks_off(runtime_id);
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

gmemrt_attach_facts gmemrt_attach;

/* Per thread: the runtime call being handled (its driver calls are not counted again), a call
 * a wrapper (below) is handling, and the free whose record waits for the real call's result. */
static __thread int runtime_depth, in_wrapper;
__thread int own_work;
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
int step_domain = -1;
unsigned step_id;

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
      GMEMRT_PHASE(CALLER, w = caller(&via_runtime, slot0));
      name_after_runtime(c, via_runtime || named_always ? named_as : NOT_NAMED);
      gmemrt_before_free(&w, c->api, c->free_api, c->ptr, &pending);
    } else {
      GMEMRT_PHASE(CLOCK,
                   pending.t0 = c->kind == CALL_COPY ? gmemrt_now_ns() : gmemrt_start_clock());
    }
  } else {
    runtime_depth -= runtime && runtime_depth > 0;
    GMEMRT_PHASE(AFTER, gmemrt_after_cuda_call());
    if (c->kind == CALL_FREE) {
      gmemrt_after_free(&pending, rc == 0);
    } else if (c->kind == CALL_COPY) {
      w = caller(&via_runtime, slot0);
      uint64_t ns = gmemrt_now_ns() - pending.t0;
      gmemrt_lock();
      gmemrt_record_copy(gmemrt_site_for(&w, c->api, -1), c->size, ns, c->copy_kind, c->ptr,
                         c->src);
      gmemrt_unlock();
    } else {
      void *ptr = NULL;
      if (rc == 0)
        ptr = c->out     ? *c->out
              : c->out_d ? (void *)(uintptr_t)*c->out_d
              : c->out_h ? (void *)(uintptr_t)*c->out_h
                         : NULL;
      uint64_t size = rc == 0 && c->pitch ? (uint64_t)*c->pitch * c->height : c->size;
      GMEMRT_PHASE(CALLER, w = caller(&via_runtime, slot0));
      name_after_runtime(c, via_runtime || named_always ? named_as : NOT_NAMED);
      /* a CUPTI runtime callback's result is a cudaError_t; a driver call's, a wrapper's
       * included (under a runtime API's name or not), is a CUresult */
      gmemrt_after_alloc(&w, c->api, c->family, rc, !runtime, ptr, size, pending.t0);
    }
  }
  own_work--;
}

void on_api(void *data, int domain, unsigned id, const void *info) {
  (void)data;
  const CUpti_CallbackData *cb = info;
  int exit = cb->callbackSite == CUPTI_API_EXIT;
  if (owed_call && exit && domain == CUPTI_CB_DOMAIN_RUNTIME_API && id == owed_call) {
    owed_call = 0; /* its exit has come: the callbacks may go off */
    settle_owed(id);
  }
  if (own_work || !gmemrt_hooks_enabled())
    return;
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

static inline void count_wrapper_call(void) {
  if (!wrapper_calls_flushed_at_exit)
    flush_wrapper_calls_at_exit();
  if (++unflushed_wrapper_calls == WRAPPER_CALLS_BATCH) {
    __atomic_add_fetch(&gmemrt_attach.wrapper_calls, WRAPPER_CALLS_BATCH, __ATOMIC_RELAXED);
    unflushed_wrapper_calls = 0;
  }
}

/* ---- the thread's batched pair (pairs.h) through the stream-ordered wrappers ----
 * A repeat of the pair needs only its caller, the name the ordinary way would give it and the
 * thread's slot: no description of the call, no record. Anything else goes the ordinary way. */
static inline int pair_wrapped_ready(void) {
  if (own_work || runtime_depth || __atomic_load_n(&gmemrt.broken, __ATOMIC_RELAXED) ||
      !gmemrt_pair_me.batch.armed)
    return 0;
  if (gmemrt_objects_loaded_since_scan()) { /* as wrap_enter does */
    own_work++;
    read_new_objects();
    own_work--;
  }
  return 1;
}
/* The runtime API's name the ordinary way records a wrapped call under (name_after_runtime), or
 * NULL under the driver's own name, which no batch has. */
static inline const char *pair_wrapped_api(size_t index, int via_runtime) {
  int named = __atomic_load_n(&wraps[index].named_as, __ATOMIC_RELAXED);
  return via_runtime && named >= 0 && named < RT_IDS ? runtime_names[named].api : NULL;
}

/* What a wrapper does around the real call: leave it to the runtime API's callbacks, record it
 * itself, or finish a runtime call whose API was handed over after it entered. */
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
    /* a call whose entry a callback recorded: its exit too while the API is watched (owed) */
    unsigned id = runtime_call.id;
    if (!id || id >= RT_IDS || (id != owed_call && !owe_exit(id)))
      return WRAP_FINISH;
    if (__atomic_load_n(&runtime_watched[id], __ATOMIC_RELAXED))
      learn(index, id);
    return WRAP_PASS;
  }
  int described;
  GMEMRT_PHASE(ENTER, described = describe_driver(id, params, c));
  if (!described)
    return WRAP_PASS;
  in_wrapper++;
  count_wrapper_call();
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

/* The batched pair's free: taken back from the slot, the real call, counted in the batch. */
#define PAIR_FAST_cuMemFreeAsync(index, wrap_slot, dptr, stream)                                   \
  if (pair_wrapped_ready() && gmemrt_pair_me.slot.ptr == (uintptr_t)(dptr)) {                      \
    int pair_via;                                                                                  \
    gmemrt_where pair_w = caller(&pair_via, slot0);                                                \
    const char *pair_api = pair_wrapped_api(index, pair_via);                                      \
    if (pair_api && gmemrt_pair_free(&pair_w, pair_api, (void *)(uintptr_t)(dptr))) {              \
      count_wrapper_call();                                                                        \
      uint64_t pair_t0 = gmemrt_sampled_clock(&gmemrt_thread_frees);                               \
      in_wrapper++;                                                                                \
      CUresult pair_rc;                                                                            \
      GMEMRT_PHASE_REAL_CALL(                                                                      \
          pair_rc =                                                                                \
              ((CUresult(*)(CUdeviceptr, CUstream))wraps[index].real[wrap_slot])(dptr, stream));   \
      in_wrapper--;                                                                                \
      gmemrt_pair_freed(pair_rc == CUDA_SUCCESS, gmemrt_stop_clock(pair_t0));                      \
      GMEMRT_PHASE_END();                                                                          \
      return pair_rc;                                                                              \
    }                                                                                              \
  }
/* The batched pair's allocation: the real call, then into the slot if it is the batch's block;
 * else recorded the ordinary way after the fact (its entry records nothing but the clock). */
#define PAIR_FAST_cuMemAllocAsync(index, wrap_slot, dptr, bytesize, stream)                        \
  if (pair_wrapped_ready() && gmemrt_pair_me.batch.size == (bytesize) &&                           \
      !gmemrt_pair_me.slot.ptr && (dptr)) {                                                        \
    count_wrapper_call();                                                                          \
    uint64_t pair_t0 = gmemrt_start_clock();                                                       \
    in_wrapper++;                                                                                  \
    CUresult pair_rc;                                                                              \
    GMEMRT_PHASE_REAL_CALL(                                                                        \
        pair_rc = ((CUresult(*)(CUdeviceptr *, size_t, CUstream))wraps[index].real[wrap_slot])(    \
            dptr, bytesize, stream));                                                              \
    in_wrapper--;                                                                                  \
    int pair_via;                                                                                  \
    gmemrt_where pair_w = caller(&pair_via, slot0);                                                \
    const char *pair_api = pair_wrapped_api(index, pair_via);                                      \
    if (pair_rc == CUDA_SUCCESS && pair_api &&                                                     \
        gmemrt_pair_alloc(&pair_w, pair_api, (void *)(uintptr_t) * (dptr), bytesize,               \
                          gmemrt_stop_clock(pair_t0))) {                                           \
      GMEMRT_PHASE_END();                                                                          \
      return pair_rc;                                                                              \
    }                                                                                              \
    cuMemAllocAsync_params pair_params = {dptr, bytesize, stream};                                 \
    call pair_call;                                                                                \
    if (describe_driver(DRV(cuMemAllocAsync), &pair_params, &pair_call)) {                         \
      pending.t0 = pair_t0;                                                                        \
      record_call(&pair_call, 0, 1, (int)pair_rc,                                                  \
                  __atomic_load_n(&wraps[index].named_as, __ATOMIC_RELAXED), 0, slot0);            \
    }                                                                                              \
    GMEMRT_PHASE_END();                                                                            \
    return pair_rc;                                                                                \
  }
#define PAIR_FAST_cuMemAlloc_v2(...)
#define PAIR_FAST_cuMemFree_v2(...)
#define PAIR_FAST_cuMemAllocFromPoolAsync(...)
#define PAIR_FAST_cuMemAllocManaged(...)
#define PAIR_FAST_cuMemAllocHost_v2(...)
#define PAIR_FAST_cuMemHostAlloc(...)
#define PAIR_FAST_cuMemFreeHost(...)
#define PAIR_FAST_cuMemAllocPitch_v2(...)
#define PAIR_FAST_CALL(macro, args) macro args
#define PAIR_FAST(fn, index, slot, args)                                                           \
  PAIR_FAST_CALL(PAIR_FAST_##fn, (index, slot, GMEMRT_UNPAREN args))

/* slot0: where the wrapper's return address is kept (above the saved frame pointer), for the
 * caller shortcut; NULL where the frame does not look so. */
#define WRAPPER(index, fn, slot, params, args)                                                     \
  static CUresult fn##_##slot params {                                                             \
    uintptr_t *slot0 = (uintptr_t *)__builtin_frame_address(0) + 1;                                \
    if (*slot0 != (uintptr_t)__builtin_return_address(0))                                          \
      slot0 = NULL;                                                                                \
    GMEMRT_PHASE_BEGIN(index >= 2 && index <= 4); /* cuMemAllocAsync .. cuMemAllocFromPool */      \
    PAIR_FAST(fn, index, slot, args)                                                               \
    fn##_params replayed = {GMEMRT_UNPAREN args};                                                  \
    call described;                                                                                \
    int how = wrap_enter(index, DRV(fn), &replayed, slot0, &described);                            \
    CUresult rc;                                                                                   \
    GMEMRT_PHASE_REAL_CALL(                                                                        \
        rc = ((CUresult(*) params)wraps[index].real[slot])(GMEMRT_UNPAREN args));                  \
    wrap_exit(index, DRV(fn), how, &replayed, &described, rc, slot0);                              \
    GMEMRT_PHASE_END();                                                                            \
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

wrap wraps[WRAP_COUNT] = {
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
void *wrapper_for(size_t index, void *real) {
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
