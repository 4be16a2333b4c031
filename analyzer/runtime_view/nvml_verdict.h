/* Capacity or bandwidth: the run-level reading of the NVML samples the runtime records
 * (on by default; GMEMRT_NVML=0 turns it off), one verdict per run (process). GM140
 * runtime-memory-bound reports it as a finding and `gmemlint report` shows it beside the samples;
 * both call gm_nvml_judge_run, so the two never disagree.
 *
 * NVML's figures (nvmlDeviceGetUtilizationRates) are shares of time over its own sample period
 * (1/6 s to 1 s by product): `sm` is the percent of time one or more kernels ran (any kernel, on
 * any number of SMs: not occupancy), `mem` the percent of time device memory was being read or
 * written. Used memory is the whole device's (every process on it). docs/rules/GM140.md says
 * why each threshold is what it is. */
#ifndef GM_NVML_VERDICT_H
#define GM_NVML_VERDICT_H

#include "runtime_view/telemetry.h"

/* GM140's thresholds (docs/rules/GM140.md; the rule's file points here, where the one function
 * that applies them lives). Percentages are of samples unless they say otherwise. */
enum {
  GM140_MIN_SAMPLES = 10,        /* fewer samples of a device: no verdict for it */
  GM140_FULL_PERCENT = 90,       /* a sample is full: used >= 90% of the device's total */
  GM140_FULL_SHARE = 50,         /* capacity-bound: full and idle in >= 50% of the samples */
  GM140_IDLE_SM_PERCENT = 50,    /* ... idle: kernels ran < 50% of the sample's period */
  GM140_BUSY_SM_PERCENT = 20,    /* a sample is busy: kernels ran >= 20% of its period */
  GM140_BUSY_SHARE = 25,         /* bandwidth-bound needs kernels in >= 25% of the samples */
  GM140_MEM_OF_KERNEL_TIME = 60, /* a busy sample is memory-heavy: mem% >= 60% of sm% */
  GM140_HEAVY_SHARE = 50,        /* bandwidth-bound: memory-heavy in >= 50% of the busy samples */
};

typedef enum gm_nvml_bound {
  GM_BOUND_UNKNOWN,   /* no NVML samples and no capacity out-of-memory event: nothing to say */
  GM_BOUND_FEW,       /* fewer than GM140_MIN_SAMPLES samples: no verdict */
  GM_BOUND_NEITHER,   /* enough samples, neither kind */
  GM_BOUND_CAPACITY,  /* memory nearly full for much of the run, or an OOM of capacity kind */
  GM_BOUND_BANDWIDTH, /* while kernels ran, device memory was busy most of their time */
} gm_nvml_bound;

/* One device's samples in one run, counted against the thresholds. */
typedef struct gm_nvml_figures {
  int device;
  size_t samples;
  size_t full;  /* used >= GM140_FULL_PERCENT of total while sm < GM140_IDLE_SM_PERCENT */
  size_t busy;  /* sm >= GM140_BUSY_SM_PERCENT */
  size_t heavy; /* busy, and mem >= GM140_MEM_OF_KERNEL_TIME percent of sm */
  uint64_t min_used, peak_used, total;
  double mean_sm, mean_mem, max_sm, max_mem; /* over all the device's samples */
  double first_ms, last_ms, interval_ms;     /* interval: the mean spacing of its samples */
  gm_nvml_bound bound;                       /* this device alone (never from OOM events) */
  int judged; /* one of the run's devices (or the run allocated on none NVML sampled) */
} gm_nvml_figures;

typedef struct gm_nvml_verdict {
  gm_nvml_bound bound;
  int has_figures;      /* fig holds a device's samples (none: only OOM events, or none) */
  gm_nvml_figures fig;  /* the device that decided it, else the first judged */
  size_t devices;       /* devices judged: the run's own (process.devices) that NVML sampled,
                           else every sampled device */
  size_t devices_bound; /* of them, how many have the run's verdict on their own */
  size_t capacity_ooms; /* the run's out-of-memory events of capacity kind */
  const gm_toom *first_capacity_oom;
} gm_nvml_verdict;

/* The verdict on run `run` of t (an index into t->runs). */
gm_nvml_verdict gm_nvml_judge_run(const gm_telemetry *t, size_t run);

/* Every device NVML sampled in run r, in the order they first appear: their figures (bound and
 * judged set), at most max; returns how many there are (possibly more than max). */
size_t gm_nvml_device_figures(const gm_trun *r, gm_nvml_figures *fig, size_t max);

/* "capacity-bound", "bandwidth-bound", "neither", "no verdict" (FEW and UNKNOWN). */
const char *gm_nvml_bound_name(gm_nvml_bound b);

/* The verdict in one line, with the figures that decided it and the thresholds they were held
 * against, starting with gm_nvml_bound_name (free it). */
char *gm_nvml_verdict_text(const gm_nvml_verdict *v, const gm_trun *r);

#endif
