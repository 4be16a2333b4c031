/* The profiling build's report (phases.h): the calling thread's stages at exit, in cycles and in
 * nanoseconds by the time-stamp counter's rate over the run. Empty in every other build. */
#include "phases.h"

#ifdef GMEMRT_PHASES
#include "internal.h"

#include <stdio.h>

__thread uint64_t gmemrt_phase_cycles[GMEMRT_PHASE_KINDS][GMEMRT_PHASE_COUNT];
__thread uint64_t gmemrt_phase_calls[GMEMRT_PHASE_KINDS][GMEMRT_PHASE_COUNT];
__thread int gmemrt_phase_kind;

static uint64_t start_cycles, start_ns;

__attribute__((constructor)) static void phases_start(void) {
  start_ns = gmemrt_now_ns();
  start_cycles = __rdtsc();
}

__attribute__((destructor)) static void phases_report(void) {
  static const char *const names[] = {
#define GMEMRT_PHASE_NAME(name, text) text,
      GMEMRT_PHASE_LIST(GMEMRT_PHASE_NAME)
#undef GMEMRT_PHASE_NAME
  };
  double ns = (double)(gmemrt_now_ns() - start_ns), cycles = (double)(__rdtsc() - start_cycles);
  double ns_per_cycle = cycles > 0 ? ns / cycles : 0;
  static const char *const kinds[] = {"other calls", "stream-ordered calls"};
  for (int k = 0; k < GMEMRT_PHASE_KINDS; k++) {
    if (!gmemrt_phase_calls[k][GMEMRT_PHASE_OURS])
      continue;
    fprintf(stderr, "gmemrt phases: %s (%.3f ns a cycle)\n", kinds[k], ns_per_cycle);
    for (int p = 0; p < GMEMRT_PHASE_COUNT; p++) {
      uint64_t n = gmemrt_phase_calls[k][p];
      if (n)
        fprintf(stderr, "gmemrt phases:   %-42s %10llu times %8.1f ns each\n", names[p],
                (unsigned long long)n,
                (double)gmemrt_phase_cycles[k][p] / (double)n * ns_per_cycle);
    }
  }
}
#endif
