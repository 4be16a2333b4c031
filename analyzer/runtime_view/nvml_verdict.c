/* Capacity or bandwidth (nvml_verdict.h): each device's NVML samples counted against GM140's
 * thresholds, and the run's verdict drawn from its devices and its out-of-memory events. */
#include "runtime_view/nvml_verdict.h"
#include "runtime_view/torch_view.h"
#include "runtime_view/oom_verdict.h"

#include <string.h>

static gm_nvml_bound device_bound(const gm_nvml_figures *f) {
  if (f->samples < GM140_MIN_SAMPLES)
    return GM_BOUND_FEW;
  if (f->full * 100 >= (size_t)GM140_FULL_SHARE * f->samples)
    return GM_BOUND_CAPACITY;
  /* the GPU waited on the host for most of the run: what kernels did there does not limit it */
  if (f->busy && f->busy * 100 >= (size_t)GM140_BUSY_SHARE * f->samples &&
      f->heavy * 100 >= (size_t)GM140_HEAVY_SHARE * f->busy)
    return GM_BOUND_BANDWIDTH;
  return GM_BOUND_NEITHER;
}

static void count_device(const gm_trun *r, int device, gm_nvml_figures *f) {
  memset(f, 0, sizeof *f);
  f->device = device;
  double sm = 0, mem = 0;
  for (size_t i = 0; i < r->nvml.len; i++) {
    const gm_tnvml *x = &r->nvml.items[i];
    if (x->device != device)
      continue;
    if (!f->samples || x->used_bytes < f->min_used)
      f->min_used = x->used_bytes;
    if (!f->samples)
      f->first_ms = x->ms;
    f->last_ms = x->ms;
    f->samples++;
    if (x->used_bytes > f->peak_used)
      f->peak_used = x->used_bytes;
    if (x->total_bytes > f->total)
      f->total = x->total_bytes;
    /* full while the SMs wait: memory, not compute, is what the run is short of (a full device
     * whose kernels run all the time is using what it has) */
    if (x->total_bytes &&
        (double)x->used_bytes * 100 >= (double)GM140_FULL_PERCENT * (double)x->total_bytes &&
        x->sm_percent < GM140_IDLE_SM_PERCENT)
      f->full++;
    /* NVML's sm is the share of time any kernel ran, and mem the share of time memory was
     * read or written: mem / sm is how much of the kernels' time memory was busy */
    if (x->sm_percent >= GM140_BUSY_SM_PERCENT) {
      f->busy++;
      if (x->mem_percent * 100 >= (unsigned)GM140_MEM_OF_KERNEL_TIME * x->sm_percent)
        f->heavy++;
    }
    sm += x->sm_percent;
    mem += x->mem_percent;
    if (x->sm_percent > f->max_sm)
      f->max_sm = x->sm_percent;
    if (x->mem_percent > f->max_mem)
      f->max_mem = x->mem_percent;
  }
  if (f->samples) {
    f->mean_sm = sm / (double)f->samples;
    f->mean_mem = mem / (double)f->samples;
  }
  if (f->samples > 1)
    f->interval_ms = (f->last_ms - f->first_ms) / (double)(f->samples - 1);
  f->bound = device_bound(f);
}

static int run_uses(const gm_trun *r, int device) {
  for (size_t i = 0; i < r->devices.len; i++)
    if (r->devices.items[i].device == device)
      return 1;
  return 0;
}

size_t gm_nvml_device_figures(const gm_trun *r, gm_nvml_figures *fig, size_t max) {
  size_t n = 0, own = 0;
  for (size_t i = 0; i < r->nvml.len; i++) {
    int dev = r->nvml.items[i].device, seen = 0;
    for (size_t k = 0; k < i && !seen; k++)
      seen = r->nvml.items[k].device == dev;
    if (seen)
      continue;
    if (n < max)
      count_device(r, dev, &fig[n]);
    own += run_uses(r, dev);
    n++;
  }
  /* NVML samples every device of the machine; the run's own are those it allocated on (NVML's
   * numbers are CUDA's for alike devices that CUDA_VISIBLE_DEVICES does not renumber) */
  for (size_t i = 0; i < n && i < max; i++)
    fig[i].judged = !own || run_uses(r, fig[i].device);
  return n;
}

enum { MAX_DEVICES = 64 };

gm_nvml_verdict gm_nvml_judge_run(const gm_telemetry *t, size_t run) {
  const gm_trun *r = &t->runs.items[run];
  gm_nvml_verdict v = {0};
  for (size_t i = 0; i < t->ooms.len; i++) {
    const gm_toom *e = &t->ooms.items[i];
    if (e->run == run && gm_oom_judge(e) == GM_OOM_CAPACITY && !gm_torch_judges_oom(t, e)) {
      if (!v.capacity_ooms)
        v.first_capacity_oom = e;
      v.capacity_ooms++;
    }
  }
  gm_nvml_figures all[MAX_DEVICES];
  size_t n = gm_nvml_device_figures(r, all, MAX_DEVICES);
  if (n > MAX_DEVICES)
    n = MAX_DEVICES;
  const gm_nvml_figures *judged[MAX_DEVICES];
  for (size_t i = 0; i < n; i++)
    if (all[i].judged)
      judged[v.devices++] = &all[i];
  /* capacity first: a run that cannot fit more cannot grow its batch, whatever limits its speed */
  static const gm_nvml_bound order[] = {GM_BOUND_CAPACITY, GM_BOUND_BANDWIDTH, GM_BOUND_NEITHER,
                                        GM_BOUND_FEW};
  v.bound = v.capacity_ooms ? GM_BOUND_CAPACITY : GM_BOUND_UNKNOWN;
  for (size_t o = 0; o < sizeof order / sizeof order[0] && v.bound == GM_BOUND_UNKNOWN; o++)
    for (size_t i = 0; i < v.devices; i++)
      if (judged[i]->bound == order[o]) {
        v.bound = order[o];
        break;
      }
  for (size_t i = 0; i < v.devices; i++)
    if (judged[i]->bound == v.bound) {
      if (!v.devices_bound)
        v.fig = *judged[i];
      v.devices_bound++;
    }
  if (v.devices && !v.devices_bound)
    v.fig = *judged[0]; /* capacity from OOM events alone: the first device's figures */
  v.has_figures = v.devices > 0;
  return v;
}

const char *gm_nvml_bound_name(gm_nvml_bound b) {
  switch (b) {
  case GM_BOUND_CAPACITY:
    return "capacity-bound";
  case GM_BOUND_BANDWIDTH:
    return "bandwidth-bound";
  case GM_BOUND_NEITHER:
    return "neither";
  default:
    return "no verdict";
  }
}

static double share(size_t part, size_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* "; mean SM 12%, memory bandwidth 3%[; memory used at most 8.2 GiB of 139.8 GiB]; 30 samples,
 * one every 50.0 ms" */
static void tail(gm_strbuf *b, const gm_nvml_figures *f, int with_used) {
  gm_sb_printf(b, "; mean SM %.0f%%, memory bandwidth %.0f%%", f->mean_sm, f->mean_mem);
  if (with_used)
    gm_sb_printf(b, "; memory used at most %s of %s", gm_bytes(f->peak_used).s,
                 gm_bytes(f->total).s);
  gm_sb_printf(b, "; %zu %s", f->samples, f->samples == 1 ? "sample" : "samples");
  if (f->samples > 1)
    gm_sb_printf(b, ", one every %.1f ms", f->interval_ms);
}

static void full_part(gm_strbuf *b, const gm_nvml_figures *f) {
  gm_sb_printf(b,
               "device %d was at least %d%% full while kernels ran less than %d%% of the time in "
               "%zu of %zu samples (%.0f%%; threshold %d%%), at most %s of %s (%.0f%%)",
               f->device, GM140_FULL_PERCENT, GM140_IDLE_SM_PERCENT, f->full, f->samples,
               share(f->full, f->samples), GM140_FULL_SHARE, gm_bytes(f->peak_used).s,
               gm_bytes(f->total).s,
               f->total ? 100.0 * (double)f->peak_used / (double)f->total : 0);
}

static void busy_part(gm_strbuf *b, const gm_nvml_figures *f) {
  gm_sb_printf(b,
               "kernels ran (SM >= %d%%) in %zu of %zu samples (%.0f%%; threshold %d%%), and in "
               "%zu of those %zu (%.0f%%; threshold %d%%) device memory was busy for at least "
               "%d%% of the kernels' time (memory bandwidth %% >= %d%% of SM %%)",
               GM140_BUSY_SM_PERCENT, f->busy, f->samples, share(f->busy, f->samples),
               GM140_BUSY_SHARE, f->heavy, f->busy, share(f->heavy, f->busy), GM140_HEAVY_SHARE,
               GM140_MEM_OF_KERNEL_TIME, GM140_MEM_OF_KERNEL_TIME);
}

char *gm_nvml_verdict_text(const gm_nvml_verdict *v, const gm_trun *r) {
  gm_strbuf b = {0};
  const gm_nvml_figures *f = &v->fig;
  gm_sb_printf(&b, "%s: ", gm_nvml_bound_name(v->bound));
  switch (v->bound) {
  case GM_BOUND_UNKNOWN:
    gm_sb_printf(&b, "no NVML samples (%s)",
                 r->nvml_available ? "none were taken" : r->nvml_reason);
    break;
  case GM_BOUND_FEW:
    gm_sb_printf(&b,
                 "%zu NVML %s of device %d, fewer than the %d a verdict needs (a longer run, or a "
                 "smaller GMEMRT_NVML_MS)",
                 f->samples, f->samples == 1 ? "sample" : "samples", f->device, GM140_MIN_SAMPLES);
    break;
  case GM_BOUND_CAPACITY:
    if (v->capacity_ooms) {
      const gm_toom *e = v->first_capacity_oom;
      gm_sb_printf(&b,
                   "%zu out-of-memory %s of capacity kind (the first asked for %s with %s free of "
                   "%s)",
                   v->capacity_ooms, v->capacity_ooms == 1 ? "error" : "errors",
                   gm_bytes(e->requested_bytes).s, gm_bytes(e->free_bytes).s,
                   gm_bytes(e->total_bytes).s);
      if (!v->has_figures) {
        gm_sb_printf(&b, "; no NVML samples (%s)",
                     r->nvml_available ? "none were taken" : r->nvml_reason);
        break;
      }
      gm_sb_printf(&b, "; ");
    }
    full_part(&b, f);
    tail(&b, f, 0);
    break;
  case GM_BOUND_BANDWIDTH:
    gm_sb_printf(&b, "on device %d ", f->device);
    busy_part(&b, f);
    tail(&b, f, 1);
    break;
  case GM_BOUND_NEITHER:
    full_part(&b, f);
    gm_sb_printf(&b, "; ");
    busy_part(&b, f);
    tail(&b, f, 0);
    break;
  }
  if (v->devices > 1 && v->devices_bound && v->bound != GM_BOUND_FEW)
    gm_sb_printf(&b, "; %zu of %zu devices were %s", v->devices_bound, v->devices,
                 gm_nvml_bound_name(v->bound));
  char *s = gm_sb_take(&b);
  return s ? s : gm_xstrdup("");
}
