/* gmemlint report: the runtime view alone, as text for people (human units, a few tables). */
#include "runtime_view/nvml_verdict.h"
#include "runtime_view/oom_verdict.h"
#include "runtime_view/telemetry.h"
#include "runtime_view/torch_verdict.h"

#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* "scenarios.c:18 cudaMalloc": the site without its directory, which is the build machine's */
static void site_name(char *buf, size_t n, const gm_tsite *s) {
  if (s->no_source)
    snprintf(buf, n, "%s (%s) %s", s->function ? s->function : "?", s->file, s->api);
  else if (s->column)
    snprintf(buf, n, "%s:%u:%u %s", base_name(s->file), s->line, s->column, s->api);
  else
    snprintf(buf, n, "%s:%u %s", base_name(s->file), s->line, s->api);
}

typedef uint64_t (*site_key)(const gm_tsite *);
static uint64_t live_exit(const gm_tsite *s) {
  return s->live_bytes;
}
static uint64_t peak(const gm_tsite *s) {
  return s->peak_live_bytes;
}

static uint64_t growth(const gm_tsite *s) {
  size_t n = s->step_live.len;
  return n >= 2 && s->step_live.items[n - 1] > s->step_live.items[0]
             ? s->step_live.items[n - 1] - s->step_live.items[0]
             : 0;
}

static uint64_t failed(const gm_tsite *s) {
  return s->failed_calls;
}

/* A site with its key computed beforehand, so that the comparison needs no state of its own
 * (reports may be printed from several threads). */
typedef struct keyed_site {
  uint64_t key;
  const gm_tsite *site;
} keyed_site;

static int by_key_desc(const void *a, const void *b) {
  const keyed_site *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? 1 : -1;
  return x->site < y->site ? -1 : x->site > y->site; /* ties in table order */
}

/* Alloc sites with a nonzero key, largest first (at most top). */
static size_t top_sites(const gm_telemetry *t, site_key key, int top, const gm_tsite **out) {
  keyed_site *keyed = gm_xcalloc(t->sites.len + 1, sizeof *keyed);
  size_t n = 0;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    uint64_t k = s->kind == GM_SITE_ALLOC ? key(s) : 0;
    if (k)
      keyed[n++] = (keyed_site){k, s};
  }
  qsort(keyed, n, sizeof *keyed, by_key_desc);
  for (size_t i = 0; i < n; i++)
    out[i] = keyed[i].site;
  free(keyed);
  return n < (size_t)top ? n : (size_t)top;
}

static void print_runs(FILE *out, const gm_telemetry *t) {
  fprintf(out, "%zu telemetry %s:\n", t->runs.len, t->runs.len == 1 ? "file" : "files");
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    fprintf(out, "  %s: pid %ld, %s, %s after %.1f ms; peak %s, %s live in %llu %s at the end\n",
            r->path, r->pid, *r->program ? base_name(r->program) : "?", r->reason, r->duration_ms,
            gm_bytes(r->peak_live_bytes).s, gm_bytes(r->live_bytes).s,
            (unsigned long long)r->live_count, r->live_count == 1 ? "allocation" : "allocations");
    if (gm_trun_torch_view_off(r))
      fprintf(out, "    the PyTorch view was off: %s\n", r->torch_view_reason);
  }
  const gm_trun *max = NULL;
  uint64_t live = 0, count = 0;
  for (size_t i = 0; i < t->runs.len; i++) {
    if (!max || t->runs.items[i].peak_live_bytes > max->peak_live_bytes)
      max = &t->runs.items[i];
    live += t->runs.items[i].live_bytes;
    count += t->runs.items[i].live_count;
  }
  if (max)
    fprintf(out, "\nProcess peak: %s (pid %ld); live at the end: %s in %llu %s%s\n",
            gm_bytes(max->peak_live_bytes).s, max->pid, gm_bytes(live).s, (unsigned long long)count,
            count == 1 ? "allocation" : "allocations", t->runs.len > 1 ? " (all files)" : "");
}

/* Allocation calls in all, and those that failed: a failed one allocated nothing. */
static void count_calls(const gm_telemetry *t, uint64_t *made, uint64_t *failed_calls) {
  *made = *failed_calls = 0;
  for (size_t i = 0; i < t->sites.len; i++)
    if (t->sites.items[i].kind == GM_SITE_ALLOC) {
      *made += t->sites.items[i].calls + t->sites.items[i].failed_calls;
      *failed_calls += t->sites.items[i].failed_calls;
    }
}

static void print_live(FILE *out, const gm_telemetry *t, int top, const gm_tsite **buf) {
  size_t n = top_sites(t, live_exit, top, buf);
  fprintf(out, "\nTop sites by live bytes at the end:\n");
  uint64_t made, failed_calls;
  count_calls(t, &made, &failed_calls);
  if (!n && failed_calls == made && made)
    fprintf(out,
            "  none: no allocation succeeded (%llu of %llu failed; see \"Failed allocations\")\n",
            (unsigned long long)failed_calls, (unsigned long long)made);
  else if (!n && failed_calls)
    fprintf(out,
            "  none: every allocation that succeeded was freed (%llu of %llu failed; see \"Failed "
            "allocations\")\n",
            (unsigned long long)failed_calls, (unsigned long long)made);
  else if (!n)
    fprintf(out, "  none: everything allocated was freed\n");
  for (size_t i = 0; i < n; i++) {
    char name[256];
    site_name(name, sizeof name, buf[i]);
    char *stack = gm_site_stack(buf[i]);
    fprintf(out, "  %10s  %s: %llu of %llu %s live%s%s\n", gm_bytes(buf[i]->live_bytes).s, name,
            (unsigned long long)buf[i]->live_count, (unsigned long long)buf[i]->calls,
            buf[i]->calls == 1 ? "allocation" : "allocations", stack ? ", stack: " : "",
            stack ? stack : "");
    free(stack);
  }
}

static void print_peak(FILE *out, const gm_telemetry *t, int top, const gm_tsite **buf) {
  size_t n = top_sites(t, peak, top, buf);
  fprintf(out, "\nTop sites by peak live bytes:\n");
  if (!n)
    fprintf(out, "  none\n");
  for (size_t i = 0; i < n; i++) {
    const gm_tsite *s = buf[i];
    char name[256];
    site_name(name, sizeof name, s);
    uint64_t made = s->calls + s->failed_calls;
    fprintf(out, "  %10s  %s: %llu %s, %s in all, %zu%s distinct %s, %s per allocation\n",
            gm_bytes(s->peak_live_bytes).s, name, (unsigned long long)s->calls,
            s->calls == 1 ? "call" : "calls", gm_bytes(s->bytes_total).s, s->sizes.len,
            s->sizes_truncated ? "+" : "", s->sizes.len == 1 ? "size" : "sizes",
            gm_duration_ns(made ? s->alloc_ns / made : 0).s);
  }
}

static void print_failed(FILE *out, const gm_telemetry *t, int top, const gm_tsite **buf) {
  uint64_t made, failed_calls;
  count_calls(t, &made, &failed_calls);
  fprintf(out, "\nFailed allocations: %llu of %llu\n", (unsigned long long)failed_calls,
          (unsigned long long)made);
  size_t n = top_sites(t, failed, top, buf);
  for (size_t i = 0; i < n; i++) {
    char name[256];
    site_name(name, sizeof name, buf[i]);
    char *text = gm_site_failed_text(buf[i]);
    fprintf(out, "  %s: %s\n", name, text);
    free(text);
  }
}

static void print_ooms(FILE *out, const gm_telemetry *t) {
  fprintf(out, "\nOut-of-memory events: %zu\n", t->ooms.len);
  for (size_t i = 0; i < t->ooms.len; i++) {
    const gm_toom *e = &t->ooms.items[i];
    char where[256];
    if (e->file)
      snprintf(where, sizeof where, "%s:%u %s", base_name(e->file), e->line, e->api);
    else
      snprintf(where, sizeof where, "%s (no site)", e->api);
    char largest[48] = "not probed";
    if (e->has_largest_block)
      snprintf(largest, sizeof largest, "%s", gm_bytes(e->largest_block_bytes).s);
    fprintf(out,
            "  %s: %s asked for %s with %s free of %s (largest block %s, program held %s, %s "
            "freed but still held) at %.1f ms, pid %ld\n",
            gm_oom_verdict_name(gm_oom_judge(e)), where, gm_bytes(e->requested_bytes).s,
            gm_bytes(e->free_bytes).s, gm_bytes(e->total_bytes).s, largest,
            gm_bytes(e->live_bytes).s, gm_bytes(e->held_unused_bytes).s, e->time_ms, e->pid);
  }
}

static void print_um(FILE *out, const gm_telemetry *t) {
  size_t collected = 0;
  for (size_t i = 0; i < t->runs.len; i++)
    collected += t->runs.items[i].um_available != 0;
  fprintf(out, "\nUnified memory (CUPTI counters in %zu of %zu %s):\n", collected, t->runs.len,
          t->runs.len == 1 ? "file" : "files");
  for (size_t i = 0; i < t->runs.len; i++)
    if (!t->runs.items[i].um_available)
      fprintf(out, "  %s: %s\n", t->runs.items[i].path, t->runs.items[i].um_reason);
  int any = 0;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (!s->has_um)
      continue;
    char name[256];
    site_name(name, sizeof name, s);
    const gm_um_counts *u = &s->um;
    char unsplit[128] = "";
    if (u->htod_prefetch_unsplit_bytes)
      snprintf(unsplit, sizeof unsplit, ", %s by a prefetch of either (an older file)",
               gm_bytes(u->htod_prefetch_unsplit_bytes).s);
    fprintf(out,
            "  %s: %llu GPU page-fault groups, %llu CPU page faults, %s host-to-device (%s on "
            "demand, %s by the driver's speculative prefetch, %s prefetched%s), %s "
            "device-to-host, %llu thrashing\n",
            name, (unsigned long long)u->gpu_page_faults, (unsigned long long)u->cpu_page_faults,
            gm_bytes(u->htod_bytes).s, gm_bytes(u->htod_on_demand_bytes).s,
            gm_bytes(u->htod_speculative_bytes).s, gm_bytes(u->htod_prefetch_bytes).s, unsplit,
            gm_bytes(u->dtoh_bytes).s, (unsigned long long)u->thrashing);
    any = 1;
  }
  if (!any)
    fprintf(out, "  no managed allocations\n");
}

enum { STEP_ROWS = 12 }; /* steps shown in full up to this many; then the first and last half */

static void print_steps(FILE *out, const gm_telemetry *t, int top, const gm_tsite **buf) {
  uint64_t steps = 0;
  for (size_t i = 0; i < t->runs.len; i++)
    if (t->runs.items[i].steps > steps)
      steps = t->runs.items[i].steps;
  fprintf(out, "\nSteps (gmem_step): %llu\n", (unsigned long long)steps);
  /* live bytes of all sites at each step */
  GM_VEC(uint64_t) total = {0};
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    for (size_t k = 0; k < s->step_live.len; k++) {
      while (total.len <= k)
        GM_PUSH(total, 0);
      total.items[k] += s->step_live.items[k];
    }
  }
  if (total.len) {
    fprintf(out, "  %6s  %10s  %11s\n", "step", "live", "growth");
    for (size_t k = 0; k < total.len; k++) {
      if (total.len > STEP_ROWS && k == STEP_ROWS / 2) {
        fprintf(out, "  %6s\n", "...");
        k = total.len - STEP_ROWS / 2;
      }
      fprintf(out, "  %6zu  %10s", k + 1, gm_bytes(total.items[k]).s);
      if (k > 0) {
        uint64_t a = total.items[k - 1], b = total.items[k];
        fprintf(out, "  %c%10s", b >= a ? '+' : '-', gm_bytes(b >= a ? b - a : a - b).s);
      }
      fputc('\n', out);
    }
    /* the sites that grew most from the first step to the last */
    size_t n = top_sites(t, growth, top, buf);
    if (n)
      fprintf(out, "  growing sites (first step to last):\n");
    for (size_t i = 0; i < n; i++) {
      const gm_tsite *s = buf[i];
      size_t len = s->step_live.len;
      uint64_t first = s->step_live.items[0], last = s->step_live.items[len - 1];
      char name[256];
      site_name(name, sizeof name, s);
      fprintf(out, "    %s: %s -> %s (+%s a step)\n", name, gm_bytes(first).s, gm_bytes(last).s,
              gm_bytes((last - first) / (len - 1)).s);
    }
  }
  GM_VEC_FREE(total);
}

static void print_pools(FILE *out, const gm_telemetry *t) {
  fprintf(out, "\nStream-ordered pools: %zu\n", t->pools.len);
  for (size_t i = 0; i < t->pools.len; i++) {
    const gm_tpool *p = &t->pools.items[i];
    uint64_t idle = p->reserved_bytes > p->used_bytes ? p->reserved_bytes - p->used_bytes : 0;
    fprintf(out,
            "  %s pool, device %d, pid %ld: reserved %s (high %s), used %s (high %s); %s "
            "reserved but unused\n",
            p->pool, p->device, p->pid, gm_bytes(p->reserved_bytes).s,
            gm_bytes(p->reserved_high_bytes).s, gm_bytes(p->used_bytes).s,
            gm_bytes(p->used_high_bytes).s, gm_bytes(idle).s);
  }
}

enum { NVML_DEVICES_SHOWN = 16 };

/* Each file's NVML samples in figures, per device, and the run's GM140 verdict. */
static void print_nvml(FILE *out, const gm_telemetry *t) {
  size_t sampled = 0;
  for (size_t i = 0; i < t->runs.len; i++)
    sampled += t->runs.items[i].nvml.len != 0;
  fprintf(out, "\nNVML samples (in %zu of %zu %s) and the run's verdict (GM140):\n", sampled,
          t->runs.len, t->runs.len == 1 ? "file" : "files");
  for (size_t i = 0; i < t->runs.len; i++) {
    const gm_trun *r = &t->runs.items[i];
    fprintf(out, "  %s (pid %ld, %s):", r->path, r->pid, *r->program ? base_name(r->program) : "?");
    if (!r->nvml.len)
      fprintf(out, " no samples (%s)", r->nvml_available ? "none were taken" : r->nvml_reason);
    fputc('\n', out);
    gm_nvml_figures fig[NVML_DEVICES_SHOWN];
    size_t n = gm_nvml_device_figures(r, fig, NVML_DEVICES_SHOWN);
    for (size_t k = 0; k < n && k < NVML_DEVICES_SHOWN; k++) {
      const gm_nvml_figures *f = &fig[k];
      fprintf(out, "    device %d: %zu %s", f->device, f->samples,
              f->samples == 1 ? "sample" : "samples");
      if (f->samples > 1)
        fprintf(out, ", one every %.1f ms from %.1f to %.1f ms", f->interval_ms, f->first_ms,
                f->last_ms);
      if (f->min_used == f->peak_used)
        fprintf(out, "; used %s", gm_bytes(f->peak_used).s);
      else
        fprintf(out, "; used %s to %s", gm_bytes(f->min_used).s, gm_bytes(f->peak_used).s);
      fprintf(out,
              " of %s; SM mean %.0f%% (max %.0f%%), memory bandwidth mean %.0f%% (max %.0f%%)%s\n",
              gm_bytes(f->total).s, f->mean_sm, f->max_sm, f->mean_mem, f->max_mem,
              f->judged ? "" : "; not the run's device: not judged");
    }
    if (n > NVML_DEVICES_SHOWN)
      fprintf(out, "    and %zu more devices\n", n - NVML_DEVICES_SHOWN);
    gm_nvml_verdict v = gm_nvml_judge_run(t, i);
    char *text = gm_nvml_verdict_text(&v, r);
    fprintf(out, "    verdict: %s\n", text);
    free(text);
  }
}

void gm_print_telemetry_report(FILE *out, const gm_telemetry *t, int top) {
  const gm_tsite **buf = gm_xcalloc(t->sites.len + 1, sizeof *buf);
  print_runs(out, t);
  print_live(out, t, top, buf);
  print_peak(out, t, top, buf);
  print_failed(out, t, top, buf);
  print_ooms(out, t);
  print_um(out, t);
  print_steps(out, t, top, buf);
  print_pools(out, t);
  print_nvml(out, t);
  gm_print_torch_report(out, t);
  free(buf);
}
