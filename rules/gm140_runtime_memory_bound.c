/* GM140 runtime-memory-bound (runtime only; no static twin)
 *
 * The first question of a GPU memory diagnosis, answered per run (process) from the NVML samples
 * the runtime records with GMEMRT_NVML=1: is the run capacity-bound (device memory nearly full
 * for much of the run, or an out-of-memory error of capacity kind: it cannot hold more), or
 * bandwidth-bound (while kernels ran, device memory was busy most of their time: data movement,
 * not arithmetic, limits it), or neither (no finding)?
 *
 *   capacity:  device 0 at least 90% full in 27 of 30 samples; reported at the allocation site
 *              that held the most bytes at the run's peak (process.address_space_at_peak)
 *   bandwidth: kernels ran in 29 of 30 samples and memory was busy >= 60% of their time in 28;
 *              reported at the telemetry file: NVML cannot tell which kernel moved the bytes
 *
 * The thresholds (GM140_* in runtime_view/nvml_verdict.h, beside the one function that applies
 * them for this rule and for `gmemlint report`; docs/rules/GM140.md says why each is what it
 * is): at least GM140_MIN_SAMPLES samples of a device; full means used >= GM140_FULL_PERCENT of
 * total, in >= GM140_FULL_SHARE of the samples; busy means SM >= GM140_BUSY_SM_PERCENT, in >=
 * GM140_BUSY_SHARE of the samples, and memory-heavy means memory-bandwidth % >=
 * GM140_MEM_OF_KERNEL_TIME % of SM %, in >= GM140_HEAVY_SHARE of the busy samples.
 *
 * A finding is a note (SARIF level note): a bound run is a diagnosis, not a defect; a
 * well-written streaming kernel is bandwidth-bound by design. */
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/nvml_verdict.h"
#include "runtime_view/torch_view.h"

#include <stdlib.h>
#include <string.h>

extern const gm_rule gm140_runtime_memory_bound;

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

/* The allocation site that held the most bytes at the run's peak, with those bytes and the live
 * bytes of the whole view; NULL when the run recorded no view of its peak. */
static const gm_tsite *peak_holder(const gm_telemetry *t, const gm_trun *r, uint64_t *held,
                                   uint64_t *live) {
  if (!r->peak_space || !r->peak_space->blocks.len)
    return NULL;
  uint64_t *by_site = gm_xcalloc(t->sites.len + 1, sizeof *by_site);
  uint64_t sum = 0;
  for (size_t i = 0; i < r->peak_space->blocks.len; i++) {
    const gm_tblock *b = &r->peak_space->blocks.items[i];
    sum += b->bytes;
    if (b->site >= 0 && (size_t)b->site < t->sites.len)
      by_site[b->site] += b->bytes;
  }
  size_t best = t->sites.len;
  for (size_t i = 0; i < t->sites.len; i++)
    if (by_site[i] && (best == t->sites.len || by_site[i] > by_site[best]))
      best = i;
  *held = best < t->sites.len ? by_site[best] : 0;
  *live = r->peak_space->block_bytes > sum ? r->peak_space->block_bytes : sum;
  free(by_site);
  return best < t->sites.len ? &t->sites.items[best] : NULL;
}

/* Without a view of the peak, in a single run: the site with the largest peak of its own. */
static const gm_tsite *largest_peak(const gm_telemetry *t) {
  const gm_tsite *best = NULL;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (s->kind == GM_SITE_ALLOC && s->peak_live_bytes &&
        (!best || s->peak_live_bytes > best->peak_live_bytes))
      best = s;
  }
  return best;
}

struct line_bytes {
  const char *file; /* interned by the view: one pointer a name */
  unsigned line;
  uint64_t bytes;
};

static int line_cmp(const void *a, const void *b) {
  const struct line_bytes *x = a, *y = b;
  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  return (x->line > y->line) - (x->line < y->line);
}

/* The Python line whose tensors held the most in the view's peak snapshot (blocks allocated
 * there, their first frame outside the framework); 0 when the snapshot has none. */
static int python_peak_holder(const gm_torch_view *tv, gm_pyframe *at, uint64_t *held,
                              uint64_t *total) {
  const gm_torch_snapshot *peak = tv->peak;
  if (!peak || !peak->loaded || !peak->blocks.len)
    return 0;
  struct line_bytes *rows = gm_xcalloc(peak->blocks.len, sizeof *rows);
  size_t n = 0;
  *total = 0;
  for (size_t i = 0; i < peak->blocks.len; i++) {
    const gm_torch_block *b = &peak->blocks.items[i];
    if (b->state != GM_BLOCK_ALLOCATED)
      continue;
    *total += b->size;
    if (b->at.file)
      rows[n++] = (struct line_bytes){b->at.file, b->at.line, b->size};
  }
  qsort(rows, n, sizeof *rows, line_cmp);
  *held = 0;
  for (size_t i = 0, j; i < n; i = j) {
    uint64_t sum = 0;
    for (j = i; j < n && line_cmp(&rows[i], &rows[j]) == 0; j++)
      sum += rows[j].bytes;
    if (sum > *held) {
      *held = sum;
      *at = (gm_pyframe){rows[i].file, rows[i].line};
    }
  }
  free(rows);
  return *held > 0;
}

/* A run of PyTorch whose peak holder is the caching allocator's (or a framework library's)
 * cudaMalloc inside libc10_cuda.so: placed at the Python line whose tensors held the most at
 * the peak, or at the view's companion when its snapshot names none. */
static void capacity_in_torch(const gm_runtime_ctx *c, const gm_torch_view *tv, const char *verdict,
                              const char *run, const char *why) {
  gm_pyframe at = {0};
  uint64_t held = 0, total = 0;
  int placed = python_peak_holder(tv, &at, &held, &total);
  double pct = total ? 100.0 * (double)held / (double)total : 0;
  char *where =
      placed ? gm_xasprintf("the tensors allocated here held the most memory at the run's peak "
                            "(%.0f%% of the tensors' bytes in the PyTorch view's peak snapshot)",
                            pct)
             : gm_xstrdup("PyTorch's caching allocator held the memory, and the view's peak "
                          "snapshot names no Python line for it");
  gm_finding *f = gm_runtime_add(
      c, &gm140_runtime_memory_bound, placed ? at.file : tv->path, placed ? at.line : 0, 0,
      "%s was capacity-bound: %s; %s; reduce the footprint: free tensors and caches no longer "
      "needed, use a smaller batch or working set, keep cold data on the host, and check the "
      "PyTorch view's findings (GM150-GM154)",
      run, why, where);
  if (placed)
    gm_runtime_evidence(f, "%s; at the peak the tensors from this line held %s of %s allocated",
                        verdict, gm_bytes(held).s, gm_bytes(total).s);
  else
    gm_runtime_evidence(f, "%s", verdict);
  free(where);
}

static void capacity(const gm_runtime_ctx *c, const gm_trun *r, const gm_nvml_verdict *v,
                     const char *verdict, const char *run) {
  uint64_t held = 0, live = 0;
  const gm_tsite *s = peak_holder(c->telemetry, r, &held, &live);
  int at_peak = s != NULL;
  if (!s && c->telemetry->runs.len == 1 && (s = largest_peak(c->telemetry))) {
    held = s->peak_live_bytes;
    live = r->peak_live_bytes;
  }
  const char *why = v->has_figures && v->fig.bound == GM_BOUND_CAPACITY
                        ? "device memory was nearly full for much of it"
                        : "an allocation failed for lack of free device memory";
  const gm_torch_view *tv =
      gm_torch_view_of_run(c->telemetry, (size_t)(r - c->telemetry->runs.items));
  if (tv &&
      (!s || gm_torch_caches_site(c->telemetry, s) || gm_torch_framework_site(c->telemetry, s))) {
    capacity_in_torch(c, tv, verdict, run, why);
    return;
  }
  const gm_toom *e = v->first_capacity_oom;
  const char *file = s ? s->file : e && e->file ? e->file : r->path;
  unsigned line = s ? s->line : e && e->file ? e->line : 0;
  unsigned col = s ? s->column : e && e->file ? e->column : 0;
  double pct = live ? 100.0 * (double)held / (double)live : 0;
  char *where = !s ? gm_xstrdup(e && e->file ? "an allocation here ran out of memory"
                                             : "no allocation site is known for it")
                : at_peak
                    ? gm_xasprintf("this allocation held the most memory at the run's peak (%.0f%% "
                                   "of the live bytes)",
                                   pct)
                    : gm_xasprintf("this allocation had the largest peak of the run's sites "
                                   "(%.0f%% of the run's peak)",
                                   pct);
  gm_finding *f = gm_runtime_add(
      c, &gm140_runtime_memory_bound, file, line, col,
      "%s was capacity-bound: %s; %s; reduce the footprint: free buffers and caches no longer "
      "needed, use a smaller batch or working set, keep cold data on the host, and check the "
      "fragmentation findings (GM103)",
      run, why, where);
  if (at_peak)
    gm_runtime_evidence(f, "%s; at the peak this site held %s of %s live", verdict,
                        gm_bytes(held).s, gm_bytes(live).s);
  else if (s)
    gm_runtime_evidence(f, "%s; this site's peak was %s, the run's %s", verdict, gm_bytes(held).s,
                        gm_bytes(live).s);
  else
    gm_runtime_evidence(f, "%s", verdict);
  free(where);
}

static void bandwidth(const gm_runtime_ctx *c, const gm_trun *r, const char *verdict,
                      const char *run) {
  gm_finding *f = gm_runtime_add(
      c, &gm140_runtime_memory_bound, r->path, 0, 0,
      "%s was bandwidth-bound: while kernels ran, device memory was busy most of their time, so "
      "data movement, not arithmetic, limits it; fuse kernels that pass data through device "
      "memory, reuse data from shared memory or registers, use lower precision, and avoid "
      "redundant copies",
      run);
  gm_runtime_evidence(f, "%s", verdict);
}

static void runtime(const gm_runtime_ctx *c) {
  for (size_t i = 0; i < c->telemetry->runs.len; i++) {
    const gm_trun *r = &c->telemetry->runs.items[i];
    gm_nvml_verdict v = gm_nvml_judge_run(c->telemetry, i);
    if (v.bound != GM_BOUND_CAPACITY && v.bound != GM_BOUND_BANDWIDTH)
      continue;
    char *verdict = gm_nvml_verdict_text(&v, r);
    char *run =
        gm_xasprintf("the run of %s (pid %ld)", *r->program ? base_name(r->program) : "?", r->pid);
    if (v.bound == GM_BOUND_CAPACITY)
      capacity(c, r, &v, verdict, run);
    else
      bandwidth(c, r, verdict, run);
    free(run);
    free(verdict);
  }
}

const gm_rule gm140_runtime_memory_bound = {
    .id = "GM140",
    .name = "runtime-memory-bound",
    .summary = "Runtime: the run was capacity-bound or bandwidth-bound (NVML samples).",
    .description =
        "From the NVML samples of an instrumented run (GMEMRT_NVML=1): capacity-bound when "
        "device memory was at least 90% used in at least half the samples, or an allocation "
        "failed for lack of free memory; bandwidth-bound when kernels ran in at least a quarter "
        "of the samples and, in at least half of those, device memory was busy for at least 60% "
        "of the kernels' time. NVML's SM figure is the share of time any kernel ran, not how "
        "many SMs worked, so a streaming copy reads near 100% SM; the memory figure is the "
        "share of time device memory was read or written.",
    .fix = "Capacity: free buffers and caches no longer needed, use a smaller batch or working "
           "set, keep cold data on the host, check for fragmentation (GM103). Bandwidth: fuse "
           "kernels, reuse data from shared memory, use lower precision, avoid redundant copies.",
    .runtime = runtime,
    .level = GM_LEVEL_NOTE,
};
