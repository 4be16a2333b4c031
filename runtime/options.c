/* Runtime options: one table, each read from a GMEMRT_* environment variable, with a warning for
 * an unknown variable or a malformed value (mimalloc's way). */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

gmemrt_options gmemrt_opt = {
    .output = "gmemlint-%p.json",
    .stack_depth = 12,
    .stacks_per_site = 4,
    .oom_probe = 1,
    .timeline = 4096,
    .cupti = 1,
    .cupti_library = "libcupti.so.13",
    .nvml = 1, /* default on: its cost on the H200 was within noise (BENCHMARKS.md) */
    .nvml_ms = 100,
    .caller_sites = 1,
    .entry_wrappers = 1,
    .pair_batches = 1,
    .nvml_library = "libnvidia-ml.so.1",
};

enum opt_type { OPT_STRING, OPT_INT, OPT_BOOL };

static const struct option_def {
  const char *name;
  enum opt_type type;
  void *target;
  int min, max;
  const char *help;
} options[] = {
    {"GMEMRT_OUTPUT", OPT_STRING, &gmemrt_opt.output, 0, 0, "telemetry file; %p is the pid"},
    {"GMEMRT_STACK_DEPTH", OPT_INT, &gmemrt_opt.stack_depth, 0, MAX_FRAMES,
     "host frames per stack (0: no stacks)"},
    {"GMEMRT_STACKS", OPT_INT, &gmemrt_opt.stacks_per_site, 0, MAX_STACKS,
     "distinct stacks kept per site"},
    {"GMEMRT_DISABLE", OPT_BOOL, &gmemrt_opt.disabled, 0, 1, "record nothing"},
    {"GMEMRT_OOM_PROBE", OPT_BOOL, &gmemrt_opt.oom_probe, 0, 1,
     "on out-of-memory, probe the largest block still allocatable"},
    {"GMEMRT_TIMELINE", OPT_INT, &gmemrt_opt.timeline, 0, 1 << 20,
     "live-bytes samples kept for the timeline"},
    {"GMEMRT_VERBOSE", OPT_BOOL, &gmemrt_opt.verbose, 0, 1, "print options and file names"},
    {"GMEMRT_CUPTI", OPT_BOOL, &gmemrt_opt.cupti, 0, 1,
     "collect unified-memory counters through CUPTI"},
    {"GMEMRT_CUPTI_LIBRARY", OPT_STRING, &gmemrt_opt.cupti_library, 0, 0,
     "the CUPTI library to load"},
    {"GMEMRT_NVML", OPT_BOOL, &gmemrt_opt.nvml, 0, 1,
     "sample memory used and SM/memory utilisation through NVML"},
    {"GMEMRT_NVML_MS", OPT_INT, &gmemrt_opt.nvml_ms, 1, 60000, "NVML sampling interval"},
    {"GMEMRT_CALLER_SITES", OPT_BOOL, &gmemrt_opt.caller_sites, 0, 1,
     "gmemrun: find each call's site by unwinding to its caller (0: one site per API, cheaper)"},
    {"GMEMRT_ENTRY_WRAPPERS", OPT_BOOL, &gmemrt_opt.entry_wrappers, 0, 1,
     "gmemrun: hand the CUDA runtime wrapped driver entry points (0: CUPTI callbacks only)"},
    {"GMEMRT_STEP_API", OPT_STRING, &gmemrt_opt.step_api, 0, 0,
     "gmemrun: a step ends at each return from this CUDA function"},
    {"GMEMRT_NVML_LIBRARY", OPT_STRING, &gmemrt_opt.nvml_library, 0, 0, "the NVML library to load"},
    {"GMEMRT_PAIR_BATCHES", OPT_BOOL, &gmemrt_opt.pair_batches, 0, 1,
     "count a thread's repeated cudaMallocAsync/cudaFreeAsync pairs in batches (same figures)"},
    {"GMEMRT_TORCH_VIEW", OPT_STRING, &gmemrt_opt.torch_view, 0, 0,
     "gmemrun: whether it put the PyTorch shim on PYTHONPATH (on, or off: why)"},
};

void gmemrt_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("gmemrt: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static void set_option(const struct option_def *d, const char *value) {
  if (d->type == OPT_STRING) {
    if (!*value) {
      gmemrt_warn("%s is empty; keeping '%s'", d->name, *(const char **)d->target);
      return;
    }
    *(const char **)d->target = value;
    return;
  }
  char *end;
  long n = strtol(value, &end, 10);
  if (d->type == OPT_BOOL && (strcmp(value, "yes") == 0 || strcmp(value, "true") == 0))
    n = 1, end = (char *)value + strlen(value);
  if (d->type == OPT_BOOL && (strcmp(value, "no") == 0 || strcmp(value, "false") == 0))
    n = 0, end = (char *)value + strlen(value);
  if (*value == 0 || *end || n < d->min || n > d->max) {
    gmemrt_warn("%s=%s is not valid (expected %s from %d to %d); keeping %d", d->name, value,
                d->type == OPT_BOOL ? "0 or 1" : "a number", d->min, d->max, *(int *)d->target);
    return;
  }
  *(int *)d->target = (int)n;
}

/* The known names come from the table, so an option added to it is listed without more ado. */
static void warn_unknown(const char *name, size_t len) {
  char known[1024];
  size_t used = 0;
  known[0] = 0;
  for (size_t i = 0; i < sizeof options / sizeof options[0] && used < sizeof known; i++)
    used +=
        (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", options[i].name);
  gmemrt_warn("unknown option %.*s (known: %s)", (int)len, name, known);
}

void gmemrt_options_load(void) {
  const size_t n = sizeof options / sizeof options[0];
  for (char **env = environ; env && *env; env++) {
    if (strncmp(*env, "GMEMRT_", 7) != 0)
      continue;
    const char *eq = strchr(*env, '=');
    if (!eq)
      continue;
    size_t len = (size_t)(eq - *env);
    const struct option_def *d = NULL;
    for (size_t i = 0; i < n && !d; i++)
      if (strlen(options[i].name) == len && strncmp(options[i].name, *env, len) == 0)
        d = &options[i];
    if (!d) {
      warn_unknown(*env, len);
      continue;
    }
    set_option(d, eq + 1);
  }
  if (gmemrt_opt.verbose)
    for (size_t i = 0; i < n; i++) {
      if (options[i].type == OPT_STRING)
        fprintf(stderr, "gmemrt: %s=%s (%s)\n", options[i].name, *(const char **)options[i].target,
                options[i].help);
      else
        fprintf(stderr, "gmemrt: %s=%d (%s)\n", options[i].name, *(int *)options[i].target,
                options[i].help);
    }
}
