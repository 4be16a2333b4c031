/* The stage totals of --time-report (timing.h): atomic counters in nanoseconds, the few slowest
 * files under a lock, and the report with the process's CPU time and peak memory. */
#include "support/timing.h"

#include "support/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { SLOWEST_KEPT = 5 };

static atomic_int enabled;
static _Atomic uint64_t stage_ns[GM_STAGE_COUNT];
static _Atomic uint64_t stage_events[GM_STAGE_COUNT];
/* parses with a preamble of the CUDA base, those on a chained one, and their leading includes:
 * all of them, and those the preambles held */
static _Atomic uint64_t pch_parses, chained_parses, run_includes, held_includes;

static pthread_mutex_t slowest_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  char *path;
  double seconds;
} slowest[SLOWEST_KEPT];

static const char *const stage_names[GM_STAGE_COUNT] = {
    [GM_STAGE_PREPARE] = "read, flags, cache lookup",
    [GM_STAGE_PREAMBLE] = "preamble builds",
    [GM_STAGE_PARSE] = "clang parse",
    [GM_STAGE_MODEL] = "model",
    [GM_STAGE_FLOW] = "flow",
    [GM_STAGE_RULES] = "rules",
    [GM_STAGE_UNIT] = "unit summary, settle, cache",
    [GM_STAGE_PROGRAM] = "program join and checks",
    [GM_STAGE_OUTPUT] = "output",
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gm_timing_enable(void) {
  atomic_store(&enabled, 1);
}

int gm_timing_enabled(void) {
  return atomic_load_explicit(&enabled, memory_order_relaxed);
}

double gm_timing_start(void) {
  return gm_timing_enabled() ? now() : 0;
}

void gm_timing_stop(enum gm_stage stage, double start) {
  if (!gm_timing_enabled())
    return;
  double d = now() - start;
  atomic_fetch_add_explicit(&stage_ns[stage], (uint64_t)(d > 0 ? d * 1e9 : 0),
                            memory_order_relaxed);
}

void gm_timing_count(enum gm_stage stage) {
  if (gm_timing_enabled())
    atomic_fetch_add_explicit(&stage_events[stage], 1, memory_order_relaxed);
}

void gm_timing_preamble_use(size_t held, size_t run) {
  if (!gm_timing_enabled())
    return;
  atomic_fetch_add_explicit(&pch_parses, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&chained_parses, held > 0, memory_order_relaxed);
  atomic_fetch_add_explicit(&held_includes, held, memory_order_relaxed);
  atomic_fetch_add_explicit(&run_includes, run, memory_order_relaxed);
}

void gm_timing_file(const char *path, double seconds) {
  if (!gm_timing_enabled())
    return;
  pthread_mutex_lock(&slowest_lock);
  int k = SLOWEST_KEPT; /* the slot it takes, slowest first */
  while (k > 0 && (!slowest[k - 1].path || slowest[k - 1].seconds < seconds))
    k--;
  if (k < SLOWEST_KEPT) {
    free(slowest[SLOWEST_KEPT - 1].path);
    memmove(&slowest[k + 1], &slowest[k], sizeof slowest[0] * (SLOWEST_KEPT - 1 - (size_t)k));
    slowest[k].path = gm_xstrdup(path);
    slowest[k].seconds = seconds;
  }
  pthread_mutex_unlock(&slowest_lock);
}

void gm_timing_print(FILE *out, double wall, int workers) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
  double total = 0;
  for (int s = 0; s < GM_STAGE_COUNT; s++)
    total += (double)atomic_load(&stage_ns[s]) * 1e-9;
  fprintf(out, GM_PROGRAM ": time report (seconds, each stage summed over %d worker%s)\n", workers,
          workers == 1 ? "" : "s");
  for (int s = 0; s < GM_STAGE_COUNT; s++) {
    double secs = (double)atomic_load(&stage_ns[s]) * 1e-9;
    uint64_t events = atomic_load(&stage_events[s]);
    fprintf(out, "  %-30s %9.3f %5.1f%%", stage_names[s], secs,
            total > 0 ? 100.0 * secs / total : 0.0);
    if (events)
      fprintf(out, "  (%llu)", (unsigned long long)events);
    fputc('\n', out);
  }
  if (atomic_load(&pch_parses))
    fprintf(out,
            "  %-30s %llu of %llu parses, holding %llu of their %llu leading system includes\n",
            "on a chained preamble", (unsigned long long)atomic_load(&chained_parses),
            (unsigned long long)atomic_load(&pch_parses),
            (unsigned long long)atomic_load(&held_includes),
            (unsigned long long)atomic_load(&run_includes));
  fprintf(out, "  %-30s %9.3f\n", "stages, total", total);
  fprintf(out, "  %-30s %9.3f\n", "wall clock", wall);
  fprintf(out, "  %-30s %9.3f\n", "CPU (user + system)", cpu);
  fprintf(out, "  %-30s %9.1f MiB\n", "peak memory (max RSS)", (double)ru.ru_maxrss / 1024.0);
  pthread_mutex_lock(&slowest_lock);
  for (int k = 0; k < SLOWEST_KEPT && slowest[k].path; k++) {
    fprintf(out, "  %s %s %.3f\n", k ? "              " : "slowest files:", slowest[k].path,
            slowest[k].seconds);
    free(slowest[k].path);
    slowest[k].path = NULL;
  }
  pthread_mutex_unlock(&slowest_lock);
}
