/* --time-report: where a run's time goes. Each stage of the analysis (preamble builds, clang's
 * parse, the model, flow, rules, ...) adds the wall-clock time it took to a process-wide total,
 * summed over the worker threads; the driver prints the totals, the process's CPU time and peak
 * memory, and the slowest files at the end. Off unless enabled: a stage timer then costs one
 * branch. Thread-safe. */
#ifndef GM_TIMING_H
#define GM_TIMING_H

#include <stdio.h>

enum gm_stage {
  GM_STAGE_PREPARE,  /* read, configuration, flags, result-cache lookup */
  GM_STAGE_PREAMBLE, /* building the shared precompiled preambles */
  GM_STAGE_PARSE,    /* clang's parse (libclang), with or without a preamble */
  GM_STAGE_MODEL,    /* the function model built from clang's AST */
  GM_STAGE_FLOW,     /* the flow engine, summaries included */
  GM_STAGE_RULES,    /* the rules' per-function checks */
  GM_STAGE_UNIT,     /* unit summaries, suppressions, fingerprints, cache store */
  GM_STAGE_PROGRAM,  /* joining the units and the program-wide checks */
  GM_STAGE_OUTPUT,   /* printing and writing the results */
  GM_STAGE_COUNT
};

void gm_timing_enable(void);
int gm_timing_enabled(void);
/* Monotonic seconds; 0 when timing is off (so a disabled timer is two loads and a branch). */
double gm_timing_start(void);
/* Adds the time since `start` (from gm_timing_start) to the stage. */
void gm_timing_stop(enum gm_stage stage, double start);
/* One file's parse and analysis took `seconds`: kept if among the slowest. */
void gm_timing_file(const char *path, double seconds);
/* Counts one more event of the stage (parses, preamble builds). */
void gm_timing_count(enum gm_stage stage);
/* A parse with a preamble held `held` of the `run` leading system includes of its file. */
void gm_timing_preamble_use(size_t held, size_t run);
/* The report, `wall` seconds since the run began, `workers` threads. */
void gm_timing_print(FILE *out, double wall, int workers);

#endif
