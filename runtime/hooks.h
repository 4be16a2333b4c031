/* The hook bodies (hooks.c) and the macros that give each hook its entry points, shared by the
 * runtime API's hooks, the driver API's (driver.c) and the injected runtime. Private to runtime/.
 */
#ifndef GMEMRT_HOOKS_H
#define GMEMRT_HOOKS_H

#include "internal.h"

/* The forced-include entry points' declarations, so that a definition that drifts from them
 * does not compile (after internal.h: GMEMRT_BUILDING leaves the header's macros out). */
#include "gmem_forced.h"

#include <stdint.h>

/* Each hook exists in two forms that share one body hook_<name>(where, ...):
 * gmemrt_<name>(file, line, column, ...) for the calls gmem_forced.h routes here, and, in the
 * preloaded library, the API's own name <sym>(...), whose site is the caller's return address. */
#define GMEMRT_SOURCE_WHERE                                                                        \
  { .file = file, .line = line, .col = col, .ret = (uintptr_t)__builtin_return_address(0) }
#define GMEMRT_CALLER_WHERE                                                                        \
  { .pc = (uintptr_t)__builtin_return_address(0), .ret = (uintptr_t)__builtin_return_address(0) }
#define GMEMRT_UNPAREN(...) __VA_ARGS__
/* entry and hook are pasted by the caller's own macro (gmemrt_##name, hook_##name), before
 * cuda.h's macros (cuMemAlloc -> cuMemAlloc_v2) could rename them. */
#define GMEMRT_SOURCE_ENTRY(type, entry, hook, params, args)                                       \
  type entry(const char *file, int line, int col, GMEMRT_UNPAREN params) {                         \
    gmemrt_where w = GMEMRT_SOURCE_WHERE;                                                          \
    return hook(&w, GMEMRT_UNPAREN args);                                                          \
  }
#ifdef GMEMRT_PRELOAD
#define GMEMRT_HOOK(type, entry, hook, sym, params, args)                                          \
  GMEMRT_SOURCE_ENTRY(type, entry, hook, params, args)                                             \
  GMEMRT_API type sym params {                                                                     \
    gmemrt_where w = GMEMRT_CALLER_WHERE;                                                          \
    return hook(&w, GMEMRT_UNPAREN args);                                                          \
  }
#else
#define GMEMRT_HOOK(type, entry, hook, sym, params, args)                                          \
  GMEMRT_SOURCE_ENTRY(type, entry, hook, params, args)
#endif

/* A driver API function (driver.c): the program's own, else libcuda.so.1's (opened once). */
void *gmemrt_driver_sym(const char *sym);

/* The hook bodies (hooks.c), shared by the runtime and driver API hooks. */
int gmemrt_hooks_enabled(void);
/* Reading the clock twice costs about as much as a cudaMallocAsync's own bookkeeping, so each
 * thread times its first 4096 allocations and then one in 16, and its frees likewise; sites
 * report the measured time scaled by the calls they made (alloc_timed_calls says how many were
 * measured). Frees count apart: with one counter, a loop of pairs would time every sixteenth
 * allocation and never its free. 0: not timed. */
extern __thread uint32_t gmemrt_thread_calls, gmemrt_thread_frees;
static inline uint64_t gmemrt_sampled_clock(uint32_t *calls) {
  uint32_t n = ++*calls;
  return n <= 4096 || (n & 15) == 0 ? gmemrt_now_ns() : 0;
}
static inline uint64_t gmemrt_start_clock(void) {
  return gmemrt_sampled_clock(&gmemrt_thread_calls);
}
/* The call's duration since a sampled start (plus one, so that a timed call is never 0), or 0
 * when it was not timed. */
static inline uint64_t gmemrt_stop_clock(uint64_t t0) {
  return t0 ? gmemrt_now_ns() - t0 + 1 : 0;
}
/* error: the real call's result, 0 for success; driver_api: it is a CUresult (driver API), not a
 * cudaError_t */
int gmemrt_after_alloc(const gmemrt_where *w, const char *api, int family, int error,
                       int driver_api, void *ptr, uint64_t size, uint64_t t0);
/* A free between its record (before the real call) and the real call's result. */
typedef struct gmemrt_free_in_flight {
  int site, was_live;
  int paired;              /* the thread's batched pair (pairs.h): no record here */
  struct live_entry saved; /* put back if the real call fails */
  uint64_t t0;
} gmemrt_free_in_flight;
void gmemrt_before_free(const gmemrt_where *w, const char *api, int free_api, void *ptr,
                        gmemrt_free_in_flight *f);
void gmemrt_after_free(const gmemrt_free_in_flight *f, int ok);

#endif
