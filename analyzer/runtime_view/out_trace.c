/* gmemlint report --trace: the telemetry's timeline in the Trace Event Format (a traceEvents
 * array), which ui.perfetto.dev and chrome://tracing open. Timestamps are microseconds since the
 * process started, as the runtime's milliseconds are. What each track is: docs/report.md. */
#include "runtime_view/out_report.h"
#include "model/families.h"
#include "runtime_view/join.h"
#include "runtime_view/nvml_verdict.h"
#include "runtime_view/oom_verdict.h"
#include "support/version.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Linux pids are below 2^22, so this one names no process: it carries the per-site series by
 * gmem_step(), whose clock is the step number (the runtime records no time for a step). */
enum { STEP_PID = 4194304 };

typedef struct event {
  double ts;  /* microseconds */
  size_t seq; /* ties keep the order they were made in */
  json_t *o;
} event;

typedef GM_VEC(event) event_vec;

static double us(double ms) {
  double v = ms * 1000.0;
  return (double)(long long)(v * 1000.0 + (v >= 0 ? 0.5 : -0.5)) / 1000.0; /* to the ns */
}

static void add(event_vec *v, double ts, json_t *o) {
  json_object_set_new(o, "ts", json_real(ts));
  event e = {ts, v->len, o};
  GM_PUSH(*v, e);
}

static json_t *counter(const char *name, long pid, const char *key, uint64_t value) {
  return json_pack("{s:s, s:s, s:I, s:i, s:{s:I}}", "name", name, "ph", "C", "pid", (json_int_t)pid,
                   "tid", 0, "args", key, (json_int_t)value);
}

static json_t *meta(const char *what, long pid, const char *name) {
  return json_pack("{s:s, s:s, s:I, s:i, s:{s:s}}", "name", what, "ph", "M", "pid", (json_int_t)pid,
                   "tid", 0, "args", "name", name);
}

static json_t *instant(const char *name, long pid) {
  return json_pack("{s:s, s:s, s:s, s:I, s:i}", "name", name, "ph", "i", "s", "p", "pid",
                   (json_int_t)pid, "tid", 0);
}

static int by_time(const void *a, const void *b) {
  const event *x = a, *y = b;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : 0;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash && slash[1] ? slash + 1 : path;
}

/* The process timeline counts device, managed and pinned memory of every device together; it
 * is named for the device only when that is all it can be. Track names end where the argument's
 * key ("bytes") continues them: Perfetto shows "<name> <key>". */
static int any_host_or_managed(const gm_telemetry *t) {
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_family *fam = gm_site_family(&t->sites.items[i]); /* families.ini says what it is */
    if (fam && (fam->pinned || fam->managed))
      return 1;
  }
  return 0;
}

static char *live_track_name(const gm_trun *r, int host_or_managed) {
  if (r->devices.len == 1 && !host_or_managed)
    return gm_xasprintf("device %d live", r->devices.items[0].device);
  return gm_xstrdup("process live");
}

static void run_events(const gm_telemetry *t, size_t i, long pid, int host_or_managed,
                       json_t *metas, event_vec *evs) {
  const gm_trun *r = &t->runs.items[i];
  char *pname = gm_xasprintf("%s (pid %ld)", *r->program ? base_name(r->program) : r->path, r->pid);
  json_array_append_new(metas, meta("process_name", pid, pname));
  json_array_append_new(metas, meta("thread_name", pid, "gmemrt"));
  free(pname);
  char *live = live_track_name(r, host_or_managed);
  if (r->timeline.len) {
    /* nothing is live when the runtime starts; the last value holds to the end of the run */
    add(evs, 0, counter(live, pid, "bytes", 0));
    for (size_t k = 0; k < r->timeline.len; k++)
      add(evs, us(r->timeline.items[k].ms),
          counter(live, pid, "bytes", r->timeline.items[k].bytes));
    if (r->duration_ms > r->timeline.items[r->timeline.len - 1].ms)
      add(evs, us(r->duration_ms), counter(live, pid, "bytes", r->live_bytes));
  }
  free(live);
  for (size_t k = 0; k < t->ooms.len; k++) {
    const gm_toom *e = &t->ooms.items[k];
    if (e->run != i)
      continue;
    char *name = gm_xasprintf("out of memory (%s)", gm_oom_verdict_name(gm_oom_judge(e)));
    json_t *o = instant(name, pid);
    free(name);
    char *site = e->file ? gm_xasprintf("%s:%u", e->file, e->line) : gm_xstrdup("(no site)");
    json_t *args = json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:i}", "site", site, "api",
                             e->api, "verdict", gm_oom_verdict_name(gm_oom_judge(e)),
                             "requested_bytes", (json_int_t)e->requested_bytes, "free_bytes",
                             (json_int_t)e->free_bytes, "total_bytes", (json_int_t)e->total_bytes,
                             "live_bytes", (json_int_t)e->live_bytes, "held_unused_bytes",
                             (json_int_t)e->held_unused_bytes, "device", e->device);
    free(site);
    json_object_set_new(args, "largest_block_bytes",
                        e->has_largest_block ? json_integer((json_int_t)e->largest_block_bytes)
                                             : json_null());
    json_object_set_new(o, "args", args);
    add(evs, us(e->time_ms), o);
  }
  for (size_t k = 0; k < r->nvml.len; k++) {
    const gm_tnvml *x = &r->nvml.items[k];
    char *used = gm_xasprintf("device %d NVML used", x->device);
    char *util = gm_xasprintf("device %d NVML utilization", x->device);
    add(evs, us(x->ms), counter(used, pid, "bytes", x->used_bytes));
    add(evs, us(x->ms),
        json_pack("{s:s, s:s, s:I, s:i, s:{s:i, s:i}}", "name", util, "ph", "C", "pid",
                  (json_int_t)pid, "tid", 0, "args", "sm_percent", (int)x->sm_percent,
                  "memory_bandwidth_percent", (int)x->mem_percent));
    free(used);
    free(util);
  }
  /* the run's GM140 verdict, at its last sample (or its end), with the figures that decided it */
  gm_nvml_verdict v = gm_nvml_judge_run(t, i);
  if (v.bound != GM_BOUND_UNKNOWN) {
    char *name = gm_xasprintf("GM140 %s", gm_nvml_bound_name(v.bound));
    char *text = gm_nvml_verdict_text(&v, r);
    json_t *o = instant(name, pid);
    json_object_set_new(o, "args", json_pack("{s:s}", "verdict", text));
    add(evs, us(r->nvml.len ? r->nvml.items[r->nvml.len - 1].ms : r->duration_ms), o);
    free(name);
    free(text);
  }
}

/* Findings whose pathology happens over time (churn, regrowth, small copies, migration,
 * ping-pong), confirmed by the run: one slice per finding on its process's "findings" track, over
 * the window its site was active (for managed memory: its pages migrating). The windows are the
 * first file's that had the site. */
static const char *const over_time_rules[] = {"GM010", "GM110", "GM020", "GM120", "GM021",
                                              "GM121", "GM030", "GM130", "GM031", "GM131"};

static int over_time(const char *id, int *copies, int *migration) {
  for (size_t i = 0; i < sizeof over_time_rules / sizeof *over_time_rules; i++)
    if (strcmp(id, over_time_rules[i]) == 0) {
      *copies = strcmp(id + 3, "21") == 0;
      *migration = id[3] == '3';
      return 1;
    }
  return 0;
}

static void finding_events(const gm_telemetry *t, const gm_output_file *files, size_t nfiles,
                           const long *pids, json_t *metas, event_vec *evs) {
  GM_VEC(long) named = {0};
  for (size_t i = 0; i < nfiles; i++)
    for (size_t k = 0; k < files[i].nfindings; k++) {
      const gm_finding *f = &files[i].findings[k];
      int copies, migration;
      if (f->verdict != GM_VERDICT_CONFIRMED || f->filtered || !f->rule ||
          !over_time(f->rule->id, &copies, &migration))
        continue;
      const gm_tsite *s = gm_telemetry_find(t, f->loc.file, f->loc.line, f->loc.col,
                                            copies ? GM_SITE_OTHER : GM_SITE_ALLOC);
      if (!s)
        continue;
      double first = s->active_first_ms, last = s->active_last_ms;
      if (migration && s->um.has_migrating) {
        first = s->um.migrating_first_ms;
        last = s->um.migrating_last_ms;
      } else if (!s->has_active) {
        continue;
      }
      long pid = pids[s->first_run];
      int seen = 0;
      for (size_t n = 0; n < named.len && !seen; n++)
        seen = named.items[n] == pid;
      if (!seen) {
        json_array_append_new(metas, json_pack("{s:s, s:s, s:I, s:i, s:{s:s}}", "name",
                                               "thread_name", "ph", "M", "pid", (json_int_t)pid,
                                               "tid", 1, "args", "name", "findings"));
        GM_PUSH(named, pid);
      }
      char *name = gm_xasprintf("%s %s", f->rule->id, f->rule->name);
      char *site = s->no_source ? gm_xasprintf("%s %s", s->file, s->api)
                                : gm_xasprintf("%s:%u %s", s->file, s->line, s->api);
      double dur = us(last) - us(first);
      json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:i, s:f, s:{s:s, s:s, s:s}}", "name", name,
                            "cat", "finding", "ph", "X", "pid", (json_int_t)pid, "tid", 1, "dur",
                            dur > 1 ? dur : 1.0, "args", "site", site, "message", f->message,
                            "evidence", f->evidence ? f->evidence : "");
      add(evs, us(first), o);
      free(name);
      free(site);
    }
  GM_VEC_FREE(named);
}

/* Per-site live bytes at each gmem_step(), summed over files: the top sites and the rest. */
static void step_events(const gm_telemetry *t, int top, json_t *metas, event_vec *evs) {
  size_t n = 0;
  for (size_t i = 0; i < t->sites.len; i++)
    if (t->sites.items[i].step_live.len > n)
      n = t->sites.items[i].step_live.len;
  if (!n)
    return;
  json_array_append_new(metas, meta("process_name", STEP_PID,
                                    "live bytes by site at each gmem_step() (time axis: the step "
                                    "number, 1 ms a step; not real time)"));
  json_array_append_new(metas, meta("thread_name", STEP_PID, "steps"));
  size_t want = top > 0 ? (size_t)top : 10;
  size_t *ids = gm_xcalloc(want + 1, sizeof *ids);
  size_t ntop = gm_report_top_sites(t, want, 1, ids);
  uint64_t *other = gm_xcalloc(n, sizeof *other);
  int any_other = 0;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    int is_top = 0;
    for (size_t k = 0; k < ntop && !is_top; k++)
      is_top = ids[k] == i;
    if (is_top || !s->step_live.len)
      continue;
    for (size_t k = 0; k < s->step_live.len; k++)
      other[k] += s->step_live.items[k];
    any_other = 1;
  }
  for (size_t k = 0; k < ntop; k++) {
    const gm_tsite *s = &t->sites.items[ids[k]];
    if (!s->step_live.len)
      continue;
    char *name = s->no_source ? gm_xasprintf("%s %s live", s->file, s->api)
                              : gm_xasprintf("%s:%u %s live", s->file, s->line, s->api);
    for (size_t j = 0; j < n; j++)
      add(evs, (double)(j + 1) * 1000,
          counter(name, STEP_PID, "bytes", j < s->step_live.len ? s->step_live.items[j] : 0));
    free(name);
  }
  if (any_other)
    for (size_t j = 0; j < n; j++)
      add(evs, (double)(j + 1) * 1000, counter("other sites live", STEP_PID, "bytes", other[j]));
  for (size_t j = 0; j < n; j++) {
    char *name = gm_xasprintf("gmem_step %zu", j + 1);
    add(evs, (double)(j + 1) * 1000, instant(name, STEP_PID));
    free(name);
  }
  free(ids);
  free(other);
}

int gm_write_trace(FILE *out, const gm_telemetry *t, int top, const gm_output_file *files,
                   size_t nfiles) {
  json_t *metas = json_array();
  event_vec evs = {0};
  GM_VEC(long) pids = {0};
  int host_or_managed = any_host_or_managed(t); /* once, not once per file */
  for (size_t i = 0; i < t->runs.len; i++) {
    long pid = t->runs.items[i].pid;
    int taken = pid <= 0;
    for (size_t k = 0; k < pids.len && !taken; k++)
      taken = pids.items[k] == pid;
    if (taken) /* two files of one pid (another host, a container): beyond any real pid */
      pid = STEP_PID + 1 + (long)i;
    GM_PUSH(pids, pid);
    run_events(t, i, pid, host_or_managed, metas, &evs);
  }
  finding_events(t, files, nfiles, pids.items, metas, &evs);
  step_events(t, top, metas, &evs);
  if (evs.len) /* qsort of no array (NULL) is undefined even with a count of 0 */
    qsort(evs.items, evs.len, sizeof *evs.items, by_time);
  int failed = 0;
  fputs("{\"displayTimeUnit\": \"ms\",\n", out);
  json_t *other = json_pack("{s:s, s:s}", "tool", "gmemlint", "version", GM_VERSION);
  char *s = json_dumps(other, JSON_COMPACT);
  fprintf(out, "\"otherData\": %s,\n\"traceEvents\": [\n", s);
  free(s);
  json_decref(other);
  size_t written = 0;
  size_t i;
  json_t *m;
  json_array_foreach(metas, i, m) {
    s = json_dumps(m, JSON_COMPACT);
    fprintf(out, "%s%s", written++ ? ",\n" : "", s ? s : "{}");
    failed |= !s;
    free(s);
  }
  for (size_t k = 0; k < evs.len; k++) {
    s = json_dumps(evs.items[k].o, JSON_COMPACT | JSON_REAL_PRECISION(15));
    fprintf(out, "%s%s", written++ ? ",\n" : "", s ? s : "{}");
    failed |= !s;
    free(s);
    json_decref(evs.items[k].o);
  }
  fputs("\n]}\n", out);
  json_decref(metas);
  GM_VEC_FREE(evs);
  GM_VEC_FREE(pids);
  return failed || ferror(out) ? -1 : 0;
}
