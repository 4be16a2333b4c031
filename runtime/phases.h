/* Where a hooked call's time goes: a profiling build (-DGMEMRT_PHASES, bench/runtime_profile.sh)
 * counts the cycles of each stage of the hot paths with the time-stamp counter, per thread, and
 * prints them at exit; the device machine has no perf, so the runtime times itself. Every other
 * build compiles the macros to nothing. Private to runtime/. */
#ifndef GMEMRT_PHASES_H
#define GMEMRT_PHASES_H

#include <stdint.h>

/* Stages, by the call's kind; PHASE_OURS is the hook's whole time outside the real call. */
#define GMEMRT_PHASE_LIST(X)                                                                       \
  X(OURS, "ours (the hook outside the real call)")                                                 \
  X(REAL, "the real call")                                                                         \
  X(ENTER, "wrapper entry: checks, describing the call")                                           \
  X(CALLER, "finding the program's call (gmemrun)")                                                \
  X(LOCK, "taking the lock")                                                                       \
  X(SITE, "site lookup")                                                                           \
  X(DEVICE, "device query")                                                                        \
  X(RECORD, "recording the allocation or free")                                                    \
  X(STACK, "stack capture")                                                                        \
  X(CLOCK, "clock reads")                                                                          \
  X(POOL, "pool note")                                                                             \
  X(AFTER, "after-call checks")                                                                    \
  X(PAIR, "batched pairs (pairs.h)")

enum gmemrt_phase {
#define GMEMRT_PHASE_ENUM(name, text) GMEMRT_PHASE_##name,
  GMEMRT_PHASE_LIST(GMEMRT_PHASE_ENUM)
#undef GMEMRT_PHASE_ENUM
      GMEMRT_PHASE_COUNT
};
/* the kind of call being timed: stream-ordered allocations and frees apart from the others */
enum { GMEMRT_PHASE_SYNC, GMEMRT_PHASE_ASYNC, GMEMRT_PHASE_KINDS };

#ifdef GMEMRT_PHASES
#include <x86intrin.h>
extern __thread uint64_t gmemrt_phase_cycles[GMEMRT_PHASE_KINDS][GMEMRT_PHASE_COUNT];
extern __thread uint64_t gmemrt_phase_calls[GMEMRT_PHASE_KINDS][GMEMRT_PHASE_COUNT];
extern __thread int gmemrt_phase_kind;
/* PHASE(NAME, statement): the statement's cycles go to NAME, under this call's kind */
#define GMEMRT_PHASE(name, ...)                                                                    \
  do {                                                                                             \
    uint64_t phase_t0_ = __rdtsc();                                                                \
    __VA_ARGS__;                                                                                   \
    gmemrt_phase_cycles[gmemrt_phase_kind][GMEMRT_PHASE_##name] += __rdtsc() - phase_t0_;          \
    gmemrt_phase_calls[gmemrt_phase_kind][GMEMRT_PHASE_##name]++;                                  \
  } while (0)
/* a hooked call's bounds: its kind, and its whole time outside the real call (REAL_CALL) */
#define GMEMRT_PHASE_BEGIN(async)                                                                  \
  gmemrt_phase_kind = (async) ? GMEMRT_PHASE_ASYNC : GMEMRT_PHASE_SYNC;                            \
  uint64_t phase_begin_ = __rdtsc(), phase_real_ = 0
#define GMEMRT_PHASE_REAL_CALL(...)                                                                \
  do {                                                                                             \
    uint64_t phase_r0_ = __rdtsc();                                                                \
    __VA_ARGS__;                                                                                   \
    phase_real_ += __rdtsc() - phase_r0_;                                                          \
  } while (0)
#define GMEMRT_PHASE_END()                                                                         \
  do {                                                                                             \
    int k_ = gmemrt_phase_kind;                                                                    \
    gmemrt_phase_cycles[k_][GMEMRT_PHASE_OURS] += __rdtsc() - phase_begin_ - phase_real_;          \
    gmemrt_phase_calls[k_][GMEMRT_PHASE_OURS]++;                                                   \
    gmemrt_phase_cycles[k_][GMEMRT_PHASE_REAL] += phase_real_;                                     \
    gmemrt_phase_calls[k_][GMEMRT_PHASE_REAL]++;                                                   \
  } while (0)
#else
#define GMEMRT_PHASE(name, ...)                                                                    \
  do {                                                                                             \
    __VA_ARGS__;                                                                                   \
  } while (0)
#define GMEMRT_PHASE_BEGIN(async) (void)0
#define GMEMRT_PHASE_REAL_CALL(...)                                                                \
  do {                                                                                             \
    __VA_ARGS__;                                                                                   \
  } while (0)
#define GMEMRT_PHASE_END() (void)0
#endif

#endif
