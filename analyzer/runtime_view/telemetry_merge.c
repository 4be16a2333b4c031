/* Merging checked telemetry files into one table: several runs, processes or MPI ranks become
 * one list of sites (by file, line and API), with every run, out-of-memory event and pool; and
 * freeing it. */
#include "runtime_view/oom_verdict.h"
#include "runtime_view/telemetry_private.h"
#include "runtime_view/torch_view.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- merging ---- */

static uint64_t u_of(const json_t *v) {
  return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static uint64_t u(const json_t *o, const char *key) {
  return u_of(json_object_get(o, key));
}

static const char *s_or(const json_t *o, const char *key, const char *dflt) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : dflt;
}

static char *dup_or_null(const char *s) {
  return s ? gm_xstrdup(s) : NULL;
}

static uint64_t hash_site(const char *file, unsigned line, const char *api) {
  uint64_t h = gm_hash64(file, strlen(file), line);
  return gm_hash64(api, strlen(api), h);
}

/* Sites are found by (file, line, api) through an open-addressing index of positions + 1. */
static void index_rebuild(gm_telemetry *t) {
  free(t->index);
  t->index_cap = 64;
  while (t->index_cap < t->sites.len * 2 + 16)
    t->index_cap *= 2;
  t->index = gm_xcalloc(t->index_cap, sizeof(size_t));
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    size_t k = hash_site(s->file, s->line, s->api) & (t->index_cap - 1);
    while (t->index[k])
      k = (k + 1) & (t->index_cap - 1);
    t->index[k] = i + 1;
  }
}

struct gm_line_sites *gm_line_bucket(const gm_telemetry *t, unsigned line) {
  size_t k = (size_t)(((uint64_t)line * 0x9E3779B97F4A7C15ull) >> 32) & (t->by_line_cap - 1);
  while (t->by_line[k].first && t->by_line[k].line != line)
    k = (k + 1) & (t->by_line_cap - 1);
  return &t->by_line[k];
}

/* Appends site `pos` to its line's chain: the chains keep the sites' order. A site without a
 * source line is never looked up by line and stays out. */
static void by_line_add(gm_telemetry *t, size_t pos) {
  gm_tsite *s = &t->sites.items[pos];
  if (s->no_source)
    return;
  struct gm_line_sites *b = gm_line_bucket(t, s->line);
  s->next_on_line = 0;
  if (b->first)
    t->sites.items[b->last - 1].next_on_line = pos + 1;
  else
    *b = (struct gm_line_sites){s->line, pos + 1, 0};
  b->last = pos + 1;
}

static void by_line_rebuild(gm_telemetry *t) {
  free(t->by_line);
  t->by_line_cap = 64;
  while (t->by_line_cap < t->sites.len * 2 + 16)
    t->by_line_cap *= 2;
  t->by_line = gm_xcalloc(t->by_line_cap, sizeof *t->by_line);
  for (size_t i = 0; i < t->sites.len; i++)
    by_line_add(t, i);
}

static gm_tsite *site_for(gm_telemetry *t, const char *file, unsigned line, const char *api,
                          int no_source) {
  if (t->sites.len * 2 + 16 > t->index_cap)
    index_rebuild(t);
  if (t->sites.len * 2 + 16 > t->by_line_cap)
    by_line_rebuild(t);
  size_t k = hash_site(file, line, api) & (t->index_cap - 1);
  for (; t->index[k]; k = (k + 1) & (t->index_cap - 1)) {
    gm_tsite *s = &t->sites.items[t->index[k] - 1];
    if (s->line == line && strcmp(s->file, file) == 0 && strcmp(s->api, api) == 0)
      return s;
  }
  gm_tsite fresh = {0};
  fresh.file = gm_xstrdup(file);
  char real[PATH_MAX];
  fresh.real = realpath(file, real) ? gm_xstrdup(real) : NULL;
  fresh.file_absolute = file[0] == '/';
  fresh.line = line;
  fresh.api = gm_xstrdup(api);
  fresh.no_source = no_source;
  GM_PUSH(t->sites, fresh);
  t->index[k] = t->sites.len;
  by_line_add(t, t->sites.len - 1);
  return &t->sites.items[t->sites.len - 1];
}

static void add_named(gm_named_counts *counts, const char *name, uint64_t n) {
  for (size_t i = 0; i < counts->len; i++)
    if (strcmp(counts->items[i].name, name) == 0) {
      counts->items[i].n += n;
      return;
    }
  gm_named_count c = {gm_xstrdup(name), n};
  GM_PUSH(*counts, c);
}

enum { MAX_SIZES = 64 }; /* the union over files keeps this many distinct sizes */

static void add_size(gm_tsite *s, uint64_t size) {
  for (size_t i = 0; i < s->sizes.len; i++)
    if (s->sizes.items[i] == size)
      return;
  if (s->sizes.len >= MAX_SIZES) {
    s->sizes_truncated = 1;
    return;
  }
  GM_PUSH(s->sizes, size);
}

static void add_stack(gm_tsite *s, const json_t *st) {
  const json_t *frames = json_object_get(st, "frames");
  for (size_t i = 0; i < s->stacks.len; i++) {
    gm_tstack *have = &s->stacks.items[i];
    if (have->frames.len != json_array_size(frames))
      continue;
    int same = 1;
    for (size_t k = 0; k < have->frames.len && same; k++)
      same = strcmp(have->frames.items[k], json_string_value(json_array_get(frames, k))) == 0;
    if (same) {
      have->count += u(st, "count");
      return;
    }
  }
  gm_tstack fresh = {u(st, "count"), {0}};
  size_t k;
  const json_t *f;
  json_array_foreach(frames, k, f) GM_PUSH(fresh.frames, gm_xstrdup(json_string_value(f)));
  GM_PUSH(s->stacks, fresh);
}

/* A [first, last] pair of milliseconds; the schema checked it is an array. */
static int window(const json_t *o, const char *key, double *first, double *last) {
  const json_t *a = json_object_get(o, key);
  if (json_array_size(a) != 2 || !json_is_number(json_array_get(a, 0)) ||
      !json_is_number(json_array_get(a, 1)))
    return 0;
  *first = json_number_value(json_array_get(a, 0));
  *last = json_number_value(json_array_get(a, 1));
  return 1;
}

static void add_um(gm_um_counts *c, const json_t *o) {
  c->gpu_page_faults += u(o, "gpu_page_faults");
  c->cpu_page_faults += u(o, "cpu_page_faults");
  c->htod_bytes += u(o, "htod_bytes");
  c->dtoh_bytes += u(o, "dtoh_bytes");
  c->thrashing += u(o, "thrashing");
  c->htod_on_demand_bytes += u(o, "htod_on_demand_bytes");
  c->htod_speculative_bytes += u(o, "htod_speculative_bytes");
  /* the program's prefetches: htod_user_prefetch_bytes since version 2. Version 1's
   * htod_prefetch_bytes meant them only once the driver's speculation had a field of its own;
   * before that it counted both, and a site that faulted over read as prefetched */
  if (json_object_get(o, "htod_user_prefetch_bytes"))
    c->htod_prefetch_bytes += u(o, "htod_user_prefetch_bytes");
  else if (json_object_get(o, "htod_speculative_bytes"))
    c->htod_prefetch_bytes += u(o, "htod_prefetch_bytes");
  else
    c->htod_prefetch_unsplit_bytes += u(o, "htod_prefetch_bytes");
  c->direction_changes += u(o, "direction_changes");
  uint64_t block_max = json_object_get(o, "block_direction_changes_max")
                           ? u(o, "block_direction_changes_max")
                           : u(o, "direction_changes");
  if (block_max > c->block_direction_changes_max)
    c->block_direction_changes_max = block_max;
  c->steps_moved += u(o, "steps_moved");
  c->steps_both_ways += u(o, "steps_both_ways");
  if (!c->has_migrating && window(o, "migrating_ms", &c->migrating_first_ms, &c->migrating_last_ms))
    c->has_migrating = 1;
}

static enum gm_site_kind kind_of(const char *k) {
  return strcmp(k, "alloc") == 0  ? GM_SITE_ALLOC
         : strcmp(k, "free") == 0 ? GM_SITE_FREE
                                  : GM_SITE_OTHER;
}

static gm_tsite *merge_site(gm_telemetry *t, const json_t *o, const gm_trun *run) {
  const char *file = json_string_value(json_object_get(o, "file"));
  char *where = NULL;
  if (!file || !*file) {
    /* no source line: the module and offset of the call name the site */
    where = gm_xasprintf("%s+%s", s_or(o, "module", "?"), s_or(o, "module_offset", "?"));
    file = where;
  }
  gm_tsite *s = site_for(t, file, (unsigned)u(o, "line"), s_or(o, "api", ""), where != NULL);
  if (where) {
    s->no_source = 1; /* also when a source site's file was spelled "module+offset" */
    if (!s->function && json_string_value(json_object_get(o, "function")))
      s->function = gm_xstrdup(json_string_value(json_object_get(o, "function")));
  }
  free(where);
  if (!s->module && json_string_value(json_object_get(o, "module")))
    s->module = gm_xstrdup(json_string_value(json_object_get(o, "module")));
  int first = s->nfiles++ == 0;
  if (first)
    s->first_run = (size_t)(run - t->runs.items);
  if (first && window(o, "active_ms", &s->active_first_ms, &s->active_last_ms))
    s->has_active = 1;
  if (!s->column)
    s->column = (unsigned)u(o, "column");
  if (first)
    s->kind = kind_of(s_or(o, "kind", "other"));
  if (!s->family && json_object_get(o, "family"))
    s->family = gm_xstrdup(s_or(o, "family", ""));
  uint64_t calls = u(o, "calls");
  if (calls && (!s->calls || u(o, "bytes_min") < s->bytes_min))
    s->bytes_min = u(o, "bytes_min");
  s->calls += calls;
  s->failed_calls += u(o, "failed_calls");
  s->bytes_total += u(o, "bytes_total");
  if (u(o, "bytes_max") > s->bytes_max)
    s->bytes_max = u(o, "bytes_max");
  size_t i;
  const json_t *e;
  json_array_foreach(json_object_get(o, "distinct_sizes"), i, e) add_size(s, u_of(e));
  if (json_is_true(json_object_get(o, "distinct_sizes_truncated")))
    s->sizes_truncated = 1;
  s->increasing_sizes += u(o, "increasing_sizes");
  if (u(o, "peak_live_bytes") > s->peak_live_bytes)
    s->peak_live_bytes = u(o, "peak_live_bytes");
  s->live_bytes += u(o, "live_bytes");
  s->live_count += u(o, "live_count");
  int at_exit = run->reason && strcmp(run->reason, "exit") == 0;
  if (at_exit) {
    s->live_bytes_exit += u(o, "live_bytes");
    s->live_count_exit += u(o, "live_count");
  } else {
    s->ended_early = 1;
  }
  const char *key;
  json_t *n;
  json_object_foreach(json_object_get(o, "frees"), key, n) add_named(&s->frees, key, u_of(n));
  json_object_foreach(json_object_get(o, "failures"), key, n) add_named(&s->failures, key, u_of(n));
  s->wrong_family_frees += u(o, "wrong_family_frees");
  s->double_frees += u(o, "double_frees");
  s->alloc_ns += u(o, "alloc_ns");
  s->alloc_timed_calls += u(o, "alloc_timed_calls");
  s->free_calls += u(o, "free_calls");
  s->free_ns += u(o, "free_ns");
  s->copies += u(o, "copies");
  s->copy_bytes += u(o, "copy_bytes");
  s->copy_ns += u(o, "copy_ns");
  if (json_object_get(o, "copies_strided")) {
    s->copies_strided += u(o, "copies_strided");
    s->has_copies_strided = 1;
  }
  const char *direction = json_string_value(json_object_get(o, "copy_direction"));
  if (direction && !s->copy_direction)
    s->copy_direction = gm_xstrdup(direction);
  else if (direction && strcmp(s->copy_direction, direction) != 0 &&
           strcmp(s->copy_direction, "mixed") != 0) {
    free(s->copy_direction);
    s->copy_direction = gm_xstrdup("mixed");
  }
  s->regrowths += u(o, "regrowths");
  if (u(o, "regrowth_chain_max") > s->regrowth_chain_max)
    s->regrowth_chain_max = u(o, "regrowth_chain_max");
  s->regrowth_copies += u(o, "regrowth_copies");
  s->regrowth_copy_bytes += u(o, "regrowth_copy_bytes");
  s->prefetches += u(o, "prefetches");
  json_array_foreach(json_object_get(o, "step_live_bytes"), i, e) {
    while (s->step_live.len <= i)
      GM_PUSH(s->step_live, 0);
    s->step_live.items[i] += u_of(e);
  }
  const json_t *um = json_object_get(o, "unified_memory");
  if (um) {
    s->has_um = 1;
    add_um(&s->um, um);
    if (run->um_available && (calls || u(o, "copies") || u(o, "prefetches")))
      s->um_collected = 1;
  }
  json_array_foreach(json_object_get(o, "stacks"), i, e) add_stack(s, e);
  return s;
}

/* An address-space view, its site indexes turned from the file's into t's (map). */
static gm_tspace *read_space(const json_t *o, const size_t *map) {
  gm_tspace *sp = gm_xcalloc(1, sizeof *sp);
  sp->time_ms = json_number_value(json_object_get(o, "time_ms"));
  sp->live_bytes = u(o, "live_bytes");
  sp->base = strtoull(s_or(o, "base", "0x0") + 2, NULL, 16);
  sp->span_bytes = u(o, "span_bytes");
  sp->block_bytes = u(o, "block_bytes");
  sp->gaps = u(o, "gaps");
  sp->gap_bytes = u(o, "gap_bytes");
  sp->largest_gap_bytes = u(o, "largest_gap_bytes");
  sp->blocks_left_out = u(o, "blocks_left_out");
  size_t i;
  const json_t *b;
  json_array_foreach(json_object_get(o, "blocks"), i, b) {
    json_int_t site = json_integer_value(json_array_get(b, 2));
    gm_tblock blk = {u_of(json_array_get(b, 0)), u_of(json_array_get(b, 1)),
                     site >= 0 ? (long)map[site] : -1};
    GM_PUSH(sp->blocks, blk);
  }
  return sp;
}

static void space_free(gm_tspace *sp) {
  if (sp)
    GM_VEC_FREE(sp->blocks);
  free(sp);
}

void gm_telemetry_merge_checked(gm_telemetry *t, const json_t *root, const char *path,
                                const char *real) {
  gm_trun run = {0};
  run.path = gm_xstrdup(path);
  run.real = dup_or_null(real);
  run.pid = (long)json_integer_value(json_object_get(root, "pid"));
  run.program = gm_xstrdup(s_or(root, "program", ""));
  run.reason = gm_xstrdup(s_or(root, "reason", "exit"));
  run.duration_ms = json_number_value(json_object_get(root, "duration_ms"));
  const json_t *proc = json_object_get(root, "process");
  run.peak_live_bytes = u(proc, "peak_live_bytes");
  run.live_bytes = u(proc, "live_bytes");
  run.live_count = u(proc, "live_count");
  run.steps = u(proc, "steps");
  const json_t *um = json_object_get(root, "unified_memory");
  run.um_available = um && json_is_true(json_object_get(um, "available"));
  run.um_reason = gm_xstrdup(um ? s_or(um, "reason", "") : "the file has no unified_memory");
  const json_t *nv = json_object_get(root, "nvml");
  run.nvml_available = nv && json_is_true(json_object_get(nv, "available"));
  run.nvml_reason = gm_xstrdup(nv ? s_or(nv, "reason", "") : "the file has no nvml");
  const json_t *tv = json_object_get(root, "torch_view");
  run.torch_view_state = tv ? gm_xstrdup(s_or(tv, "state", "")) : NULL;
  run.torch_view_reason = tv ? gm_xstrdup(s_or(tv, "reason", "")) : NULL;
  size_t i;
  const json_t *e;
  json_array_foreach(json_object_get(proc, "timeline"), i, e) {
    gm_tpoint p = {json_number_value(json_array_get(e, 0)), u_of(json_array_get(e, 1))};
    GM_PUSH(run.timeline, p);
  }
  json_array_foreach(json_object_get(proc, "devices"), i, e) {
    gm_tdevice d = {(int)json_integer_value(json_object_get(e, "device")), u(e, "allocations"),
                    u(e, "peak_live_bytes"), u(e, "live_bytes"), u(e, "live_count")};
    GM_PUSH(run.devices, d);
  }
  json_array_foreach(nv ? json_object_get(nv, "samples") : NULL, i, e) {
    gm_tnvml x = {json_number_value(json_array_get(e, 0)),
                  (int)json_integer_value(json_array_get(e, 1)),
                  u_of(json_array_get(e, 2)),
                  u_of(json_array_get(e, 3)),
                  (unsigned)u_of(json_array_get(e, 4)),
                  (unsigned)u_of(json_array_get(e, 5))};
    GM_PUSH(run.nvml, x);
  }
  GM_PUSH(t->runs, run);
  size_t run_index = t->runs.len - 1;
  const gm_trun *r = &t->runs.items[run_index];
  /* where each of the file's sites went in t, for the address-space views' site indexes */
  const json_t *sites = json_object_get(root, "sites");
  size_t *map = gm_xcalloc(json_array_size(sites) + 1, sizeof *map);
  json_array_foreach(sites, i, e) map[i] = (size_t)(merge_site(t, e, r) - t->sites.items);
  json_array_foreach(json_object_get(proc, "oom_events"), i, e) {
    gm_toom o = {0};
    const char *file = json_string_value(json_object_get(e, "file"));
    o.file = file && *file ? gm_xstrdup(file) : NULL;
    o.line = (unsigned)u(e, "line");
    o.column = (unsigned)u(e, "column");
    o.api = gm_xstrdup(s_or(e, "api", "allocation"));
    o.requested_bytes = u(e, "requested_bytes");
    o.free_bytes = u(e, "free_bytes");
    o.total_bytes = u(e, "total_bytes");
    o.live_bytes = u(e, "live_bytes");
    o.held_unused_bytes = u(e, "held_unused_bytes");
    o.has_largest_block = json_is_integer(json_object_get(e, "largest_block_bytes"));
    o.largest_block_bytes = u(e, "largest_block_bytes");
    o.has_held_unused = json_object_get(e, "held_unused_bytes") != NULL;
    o.pool_sampled = json_object_get(e, "pool_reserved_bytes") != NULL;
    o.pool_reserved_bytes = u(e, "pool_reserved_bytes");
    o.pool_used_bytes = u(e, "pool_used_bytes");
    const char *verdict = json_string_value(json_object_get(e, "verdict"));
    o.has_recorded_verdict = verdict != NULL; /* the schema checked its name */
    o.recorded_verdict = verdict ? (gm_oom_verdict)gm_oom_verdict_parse(verdict) : GM_OOM_UNKNOWN;
    o.time_ms = json_number_value(json_object_get(e, "time_ms"));
    o.source = r->path;
    o.pid = r->pid;
    o.run = run_index;
    const json_t *dev = json_object_get(e, "device");
    o.device = dev ? (int)json_integer_value(dev) : -1;
    const json_t *space = json_object_get(e, "address_space");
    o.space = space ? read_space(space, map) : NULL;
    GM_PUSH(t->ooms, o);
  }
  json_array_foreach(json_object_get(proc, "pools"), i, e) {
    gm_tpool p = {0};
    p.pool = gm_xstrdup(s_or(e, "pool", "pool"));
    p.device = (int)json_integer_value(json_object_get(e, "device"));
    p.reserved_bytes = u(e, "reserved_bytes");
    p.used_bytes = u(e, "used_bytes");
    p.reserved_high_bytes = u(e, "reserved_high_bytes");
    p.used_high_bytes = u(e, "used_high_bytes");
    p.pid = r->pid;
    GM_PUSH(t->pools, p);
  }
  const json_t *peak = json_object_get(proc, "address_space_at_peak");
  if (peak)
    t->runs.items[run_index].peak_space = read_space(peak, map);
  free(map);
}

void gm_telemetry_free(gm_telemetry *t) {
  for (size_t i = 0; i < t->sites.len; i++) {
    gm_tsite *s = &t->sites.items[i];
    free(s->file);
    free(s->real);
    free(s->api);
    free(s->family);
    free(s->copy_direction);
    free(s->function);
    free(s->module);
    GM_VEC_FREE(s->sizes);
    for (size_t k = 0; k < s->frees.len; k++)
      free(s->frees.items[k].name);
    GM_VEC_FREE(s->frees);
    for (size_t k = 0; k < s->failures.len; k++)
      free(s->failures.items[k].name);
    GM_VEC_FREE(s->failures);
    GM_VEC_FREE(s->step_live);
    for (size_t k = 0; k < s->stacks.len; k++) {
      for (size_t f = 0; f < s->stacks.items[k].frames.len; f++)
        free(s->stacks.items[k].frames.items[f]);
      GM_VEC_FREE(s->stacks.items[k].frames);
    }
    GM_VEC_FREE(s->stacks);
  }
  for (size_t i = 0; i < t->ooms.len; i++) {
    free(t->ooms.items[i].file);
    free(t->ooms.items[i].api);
    space_free(t->ooms.items[i].space);
  }
  for (size_t i = 0; i < t->pools.len; i++)
    free(t->pools.items[i].pool);
  for (size_t i = 0; i < t->runs.len; i++) {
    gm_trun *r = &t->runs.items[i];
    free(r->path);
    free(r->real);
    free(r->program);
    free(r->reason);
    free(r->um_reason);
    free(r->torch_view_state);
    free(r->torch_view_reason);
    free(r->nvml_reason);
    GM_VEC_FREE(r->timeline);
    GM_VEC_FREE(r->devices);
    GM_VEC_FREE(r->nvml);
    space_free(r->peak_space);
  }
  for (size_t i = 0; i < t->torch.len; i++)
    gm_torch_view_free(t->torch.items[i]);
  GM_VEC_FREE(t->torch);
  GM_VEC_FREE(t->sites);
  GM_VEC_FREE(t->ooms);
  GM_VEC_FREE(t->pools);
  GM_VEC_FREE(t->runs);
  free(t->index);
  t->index = NULL;
  t->index_cap = 0;
  free(t->by_line);
  t->by_line = NULL;
  t->by_line_cap = 0;
}

int gm_trun_torch_view_off(const gm_trun *r) {
  return r->torch_view_state && strcmp(r->torch_view_state, "off") == 0;
}

void gm_telemetry_say_views_off(const gm_telemetry *t, size_t first, FILE *out) {
  for (size_t i = first; i < t->runs.len; i++)
    if (gm_trun_torch_view_off(&t->runs.items[i]))
      fprintf(out,
              GM_PROGRAM ": note: %s: the PyTorch view was off in this Python run (%s); what it "
                         "shows rests on the CUDA calls alone, not on the caching allocator's "
                         "tensors, and PyTorch's own allocations (its cache, cuBLAS workspaces) "
                         "are left unjudged: run it with the shim to see the lines that hold "
                         "them\n",
              t->runs.items[i].path, t->runs.items[i].torch_view_reason);
}
