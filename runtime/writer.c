/* The telemetry file: versioned JSON (docs/telemetry-format.md), written atomically (temp file
 * and rename) at exit, on fatal signals and on gmem_dump(). Also the runtime's start: options,
 * handlers, fork. */
#include "writer.h"
#include "attach.h"
#include "internal.h"
#include "pairs.h"
#include "nvml.h"
#include "symbols.h"
#include "torch_view.h"
#include "um.h"

#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 2: out-of-memory events carry figures only (no verdict: gmemlint judges them), and the
 * program's own prefetches are htod_user_prefetch_bytes (version 1's htod_prefetch_bytes at
 * first counted the driver's speculative prefetch too). docs/telemetry-format.md */
#define TELEMETRY_VERSION 2

static pthread_once_t once = PTHREAD_ONCE_INIT;
static volatile sig_atomic_t writing;

static void child_after_fork(void) {
  /* the child writes its own file: start its records afresh */
  gmemrt.lock = 0;
  for (size_t i = 0; i < gmemrt.nsites; i++) {
    free(gmemrt_site_at(i)->step_live);
  }
  gmemrt.nsites = 0;
  gmemrt.site_generation++; /* the threads' site caches name the parent's sites */
  free(gmemrt.site_index);
  gmemrt.site_index = NULL;
  gmemrt.site_index_cap = 0;
  free(gmemrt.live);
  gmemrt.live = NULL;
  gmemrt.live_cap = gmemrt.live_used = gmemrt.live_count = 0;
  gmemrt.live_bytes = gmemrt.peak_live_bytes = 0;
  memset(gmemrt.devices, 0, sizeof gmemrt.devices);
  gmemrt.steps = 0;
  for (size_t i = 0; i < gmemrt.nooms; i++)
    free(gmemrt.ooms[i].view.blocks);
  gmemrt.nooms = 0;
  free(gmemrt.peak_view.blocks);
  gmemrt.peak_view = (gmemrt_space_view){0};
  gmemrt.ntimeline = 0;
  /* everything below names the parent's sites, which the child no longer has */
  memset(gmemrt.freed_ring, 0, sizeof gmemrt.freed_ring);
  gmemrt.freed_next = 0;
  gmemrt.nmanaged = 0;
  gmemrt.npools = 0;
  gmemrt.nnvml = 0; /* the sampling thread is not copied into the child either */
  gmemrt.start_ms = gmemrt_now_ms();
  gmemrt_pairs_forget();
}

static void at_exit(void) {
  gmemrt_write("exit");
}

static void init_once(void) {
  gmemrt_options_load();
  gmemrt.start_ms = gmemrt_now_ms();
  if (gmemrt_opt.disabled)
    return;
  atexit(at_exit);
  pthread_atfork(NULL, NULL, child_after_fork);
  gmemrt_install_handlers();
  gmemrt_um_start();
  gmemrt_nvml_start();
  gmemrt_torch_view_check();
}

void gmemrt_init(void) {
  static int done; /* every hooked call comes here */
  gmemrt_once(&once, &done, init_once);
}

__attribute__((constructor)) static void gmemrt_constructor(void) {
  gmemrt_init();
}

/* ---- fatal signals: write what we have, then let the signal do what it would have done ---- */

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
static struct sigaction previous[sizeof fatal_signals / sizeof fatal_signals[0]];

static void on_fatal(int sig) {
  if (!writing) {
    char reason[32];
    snprintf(reason, sizeof reason, "signal %d", sig);
    gmemrt_write(reason); /* not async-signal-safe; the process is ending anyway */
  }
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    if (fatal_signals[i] == sig)
      sigaction(sig, &previous[i], NULL);
  raise(sig);
}

void gmemrt_install_handlers(void) {
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    struct sigaction old;
    if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_DFL) {
      previous[i] = old; /* the program handles it: leave it alone */
      sigaction(fatal_signals[i], &old, NULL);
      continue;
    }
    sigaction(fatal_signals[i], &sa, &previous[i]);
  }
}

/* ---- JSON ---- */

static json_t *str(const char *s) {
  json_t *j = json_string(s ? s : "");
  return j ? j : json_string("?");
}

static const char *base_name(const char *path) {
  const char *b = path ? strrchr(path, '/') : NULL;
  return b ? b + 1 : path;
}

/* "function+0xoffset (module) file:line", as much of it as the binary's symbols and debug
 * information give. */
static json_t *frame_json(void *addr) {
  gmemrt_symbol sym;
  char buf[768];
  if (!gmemrt_symbolise((uintptr_t)addr, &sym)) {
    snprintf(buf, sizeof buf, "%p", addr);
    return str(buf);
  }
  int n;
  if (sym.function)
    n = snprintf(buf, sizeof buf, "%s+0x%llx (%s)", sym.function,
                 (unsigned long long)sym.function_offset, base_name(sym.module));
  else
    n = snprintf(buf, sizeof buf, "%s+0x%llx", base_name(sym.module),
                 (unsigned long long)sym.module_offset);
  if (sym.file && n > 0 && (size_t)n < sizeof buf)
    snprintf(buf + n, sizeof buf - (size_t)n, " %s:%d", sym.file, sym.line);
  return str(buf);
}

static json_t *u64(uint64_t v) {
  return json_integer((json_int_t)v);
}

static json_t *um_json(const gmemrt_um_counts *c) {
  json_t *o = json_object();
  json_object_set_new(o, "gpu_page_faults", u64(c->gpu_page_faults));
  json_object_set_new(o, "cpu_page_faults", u64(c->cpu_page_faults));
  json_object_set_new(o, "htod_bytes", u64(c->htod_bytes));
  json_object_set_new(o, "dtoh_bytes", u64(c->dtoh_bytes));
  json_object_set_new(o, "thrashing", u64(c->thrashing));
  json_object_set_new(o, "htod_on_demand_bytes", u64(c->htod_on_demand_bytes));
  json_object_set_new(o, "htod_user_prefetch_bytes", u64(c->htod_user_prefetch_bytes));
  json_object_set_new(o, "htod_speculative_bytes", u64(c->htod_speculative_bytes));
  json_object_set_new(o, "direction_changes", u64(c->direction_changes));
  json_object_set_new(o, "block_direction_changes_max", u64(c->block_direction_changes_max));
  json_object_set_new(o, "steps_moved", u64(c->steps_moved));
  json_object_set_new(o, "steps_both_ways", u64(c->steps_both_ways));
  if (c->last_ms)
    json_object_set_new(o, "migrating_ms", json_pack("[f, f]", c->first_ms, c->last_ms));
  return o;
}

/* The direction of a site's copies, by cudaMemcpyKind. */
static const char *copy_direction(unsigned kinds) {
  static const char *const names[] = {"host-to-host", "host-to-device", "device-to-host",
                                      "device-to-device", "default"};
  for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
    if (kinds == 1u << k)
      return names[k];
  return kinds ? "mixed" : "unknown";
}

static json_t *site_json(const gmemrt_site *s) {
  json_t *o = json_object();
  json_object_set_new(o, "file", s->file ? str(s->file) : json_null());
  json_object_set_new(o, "line", json_integer(s->line));
  json_object_set_new(o, "column", json_integer(s->column));
  json_object_set_new(o, "api", str(s->api));
  if (s->pc) {
    /* a return-address site (preloaded runtime): where the caller is, as far as symbols go */
    char pc[32];
    snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)s->module_offset);
    json_object_set_new(o, "module", s->module ? str(s->module) : json_null());
    json_object_set_new(o, "module_offset", str(pc));
    json_object_set_new(o, "function", s->function ? str(s->function) : json_null());
    json_object_set_new(o, "debug_info", json_boolean(s->file != NULL));
  }
  int is_alloc = s->family >= 0;
  json_object_set_new(o, "kind", str(is_alloc ? "alloc" : s->family == -2 ? "free" : "other"));
  if (is_alloc) {
    json_object_set_new(o, "family", str(gmemrt_family_names[s->family]));
    json_object_set_new(o, "device", json_integer(s->device)); /* -1: several devices */
    json_object_set_new(o, "calls", u64(s->calls));
    json_object_set_new(o, "failed_calls", u64(s->failed_calls));
    json_t *failures = json_object();
    for (int i = 0; i < s->nfailures; i++) {
      const gmemrt_failure *f = &s->failures[i];
      char unnamed[32];
      snprintf(unnamed, sizeof unnamed, "%s %d", f->driver_api ? "CUresult" : "cudaError_t",
               f->code);
      /* cudaGetErrorName gives one name to every code it does not know: those keep their code */
      const char *key =
          f->name[0] && strcmp(f->name, "unrecognized error code") != 0 ? f->name : unnamed;
      json_t *same = json_object_get(failures, key); /* two codes, one name: counts add up */
      json_object_set_new(failures, key, u64(f->calls + (same ? json_integer_value(same) : 0)));
    }
    json_object_set_new(o, "failures", failures);
    json_object_set_new(o, "bytes_total", u64(s->bytes_total));
    json_object_set_new(o, "bytes_min", u64(s->calls ? s->bytes_min : 0));
    json_object_set_new(o, "bytes_max", u64(s->bytes_max));
    json_t *sizes = json_array();
    for (int i = 0; i < s->nsizes; i++)
      json_array_append_new(sizes, u64(s->sizes[i]));
    json_object_set_new(o, "distinct_sizes", sizes);
    json_object_set_new(o, "distinct_sizes_truncated", json_boolean(s->sizes_truncated));
    json_object_set_new(o, "increasing_sizes", u64(s->increasing_sizes));
    json_object_set_new(o, "peak_live_bytes", u64(s->peak_live_bytes));
    json_object_set_new(o, "live_bytes", u64(s->live_bytes));
    json_object_set_new(o, "live_count", u64(s->live_count));
    json_t *frees = json_object();
    for (int i = 0; i < FREE_API_COUNT; i++)
      if (s->frees[i])
        json_object_set_new(frees, gmemrt_free_names[i], u64(s->frees[i]));
    json_object_set_new(o, "frees", frees);
    json_object_set_new(o, "wrong_family_frees", u64(s->wrong_family_frees));
    json_object_set_new(o, "double_frees", u64(s->double_frees));
    uint64_t made = s->calls + s->failed_calls;
    json_object_set_new(o, "alloc_ns",
                        u64(s->alloc_timed ? s->alloc_ns * made / s->alloc_timed : 0));
    json_object_set_new(o, "alloc_timed_calls", u64(s->alloc_timed));
    json_object_set_new(o, "regrowths", u64(s->regrowths));
    json_object_set_new(o, "regrowth_chain_max", u64(s->regrowth_chain_max));
    json_object_set_new(o, "regrowth_copies", u64(s->regrowth_copies));
    json_object_set_new(o, "regrowth_copy_bytes", u64(s->regrowth_copy_bytes));
    json_t *steps = json_array();
    for (size_t i = 0; i < s->nsteps; i++)
      json_array_append_new(steps, u64(s->step_live[i]));
    json_object_set_new(o, "step_live_bytes", steps);
  }
  if (s->free_calls) {
    json_object_set_new(o, "free_calls", u64(s->free_calls));
    json_object_set_new(o, "free_ns",
                        u64(s->free_timed ? s->free_ns * s->free_calls / s->free_timed : 0));
  }
  if (s->copies) {
    json_object_set_new(o, "copies", u64(s->copies));
    json_object_set_new(o, "copy_bytes", u64(s->copy_bytes));
    json_object_set_new(o, "copy_ns", u64(s->copy_ns));
    json_object_set_new(o, "copy_direction", str(copy_direction(s->copy_kinds)));
    json_object_set_new(o, "copies_strided", u64(s->copies_strided));
  }
  if (s->prefetches)
    json_object_set_new(o, "prefetches", u64(s->prefetches));
  if (s->family == FAM_MANAGED || s->family == FAM_CU_MANAGED)
    json_object_set_new(o, "unified_memory", um_json(&s->um));
  json_t *stacks = json_array();
  for (int i = 0; i < s->nstacks; i++) {
    json_t *st = json_object();
    json_object_set_new(st, "count", u64(s->stacks[i].count));
    json_t *frames = json_array();
    for (int f = 0; f < s->stacks[i].depth; f++)
      json_array_append_new(frames, frame_json(s->stacks[i].frames[f]));
    json_object_set_new(st, "frames", frames);
    json_array_append_new(stacks, st);
  }
  json_object_set_new(o, "stacks", stacks);
  if (s->calls || s->copies)
    json_object_set_new(o, "active_ms", json_pack("[f, f]", s->first_ms, s->last_ms));
  return o;
}

/* Output positions of sites (wrapper sites are left out of the file). */
static size_t *site_out_index(void) {
  size_t *idx = malloc((gmemrt.nsites ? gmemrt.nsites : 1) * sizeof *idx);
  size_t k = 0;
  for (size_t i = 0; idx && i < gmemrt.nsites; i++)
    idx[i] = gmemrt_site_at(i)->wrapper ? (size_t)-1 : k++;
  return idx;
}

/* The address-space view: live device blocks in address order, as [offset from base, bytes,
 * site index], and the gaps between them. */
static json_t *view_json(const gmemrt_space_view *v, const size_t *out_index) {
  json_t *o = json_object();
  json_object_set_new(o, "time_ms", json_real(v->time_ms));
  json_object_set_new(o, "live_bytes", u64(v->live_bytes));
  uintptr_t base = v->nblocks ? v->blocks[0].ptr : 0;
  char hex[32];
  snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)base);
  json_object_set_new(o, "base", str(hex));
  uint64_t gaps = 0, gap_bytes = 0, largest_gap = 0, block_bytes = 0;
  json_t *blocks = json_array();
  for (size_t i = 0; i < v->nblocks; i++) {
    const gmemrt_block *b = &v->blocks[i];
    block_bytes += b->size;
    if (i + 1 < v->nblocks && v->blocks[i + 1].ptr > b->ptr + b->size) {
      uint64_t gap = v->blocks[i + 1].ptr - (b->ptr + b->size);
      gaps++;
      gap_bytes += gap;
      if (gap > largest_gap)
        largest_gap = gap;
    }
    size_t site = out_index && b->site < gmemrt.nsites ? out_index[b->site] : (size_t)-1;
    json_array_append_new(blocks,
                          json_pack("[IIi]", (json_int_t)(b->ptr - base), (json_int_t)b->size,
                                    site == (size_t)-1 ? -1 : (int)site));
  }
  const gmemrt_block *last = v->nblocks ? &v->blocks[v->nblocks - 1] : NULL;
  json_object_set_new(o, "span_bytes", u64(last ? last->ptr + last->size - base : 0));
  json_object_set_new(o, "block_bytes", u64(block_bytes));
  json_object_set_new(o, "gaps", u64(gaps));
  json_object_set_new(o, "gap_bytes", u64(gap_bytes));
  json_object_set_new(o, "largest_gap_bytes", u64(largest_gap));
  json_object_set_new(o, "blocks_left_out", u64(v->truncated));
  json_object_set_new(o, "blocks", blocks);
  return o;
}

static json_t *build(const char *reason) {
  gmemrt_pairs_settle(); /* every waiting block is live in the file; this thread's pairs in it */
  size_t *out_index = site_out_index();
  json_t *root = json_object();
  json_object_set_new(root, "version", json_integer(TELEMETRY_VERSION));
  json_object_set_new(root, "tool", str("gmemrt"));
  json_object_set_new(root, "pid", json_integer(getpid()));
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  json_object_set_new(root, "program", str(exe));
  json_object_set_new(root, "reason", str(reason));
  json_object_set_new(root, "duration_ms", json_real(gmemrt_now_ms() - gmemrt.start_ms));
  json_t *proc = json_object();
  json_object_set_new(proc, "peak_live_bytes", u64(gmemrt.peak_live_bytes));
  json_object_set_new(proc, "live_bytes", u64(gmemrt.live_bytes));
  json_object_set_new(proc, "live_count", u64(gmemrt.live_count));
  json_object_set_new(proc, "steps", u64(gmemrt.steps));
  const gmemrt_device_stats *d0 = &gmemrt.devices[0];
  json_object_set_new(proc, "baseline_used_bytes",
                      d0->baseline_used ? u64(d0->baseline_used - 1) : json_null());
  json_t *devices = json_array(); /* the devices the program allocated on */
  for (int i = 0; i < MAX_DEVICES; i++) {
    const gmemrt_device_stats *d = &gmemrt.devices[i];
    if (!d->allocations && !d->peak_live_bytes)
      continue;
    json_t *o = json_object();
    json_object_set_new(o, "device", json_integer(i));
    json_object_set_new(o, "allocations", u64(d->allocations));
    json_object_set_new(o, "peak_live_bytes", u64(d->peak_live_bytes));
    json_object_set_new(o, "live_bytes", u64(d->live_bytes));
    json_object_set_new(o, "live_count", u64(d->live_count));
    json_object_set_new(o, "baseline_used_bytes",
                        d->baseline_used ? u64(d->baseline_used - 1) : json_null());
    json_array_append_new(devices, o);
  }
  json_object_set_new(proc, "devices", devices);
  json_t *ooms = json_array();
  for (size_t i = 0; i < gmemrt.nooms; i++) {
    const gmemrt_oom *e = &gmemrt.ooms[i];
    json_t *o = json_object();
    if (e->site >= 0) {
      json_object_set_new(o, "file", str(gmemrt_site_at(e->site)->file));
      json_object_set_new(o, "line", json_integer(gmemrt_site_at(e->site)->line));
      json_object_set_new(o, "column", json_integer(gmemrt_site_at(e->site)->column));
      json_object_set_new(o, "api", str(gmemrt_site_at(e->site)->api));
    }
    json_object_set_new(o, "requested_bytes", u64(e->requested));
    json_object_set_new(o, "free_bytes", u64(e->free_bytes));
    json_object_set_new(o, "total_bytes", u64(e->total_bytes));
    json_object_set_new(o, "largest_block_bytes", e->probed ? u64(e->largest_block) : json_null());
    json_object_set_new(o, "live_bytes", u64(e->live_bytes));
    json_object_set_new(o, "time_ms", json_real(e->time_ms));
    json_object_set_new(o, "device", json_integer(e->device));
    json_object_set_new(o, "live_device_bytes", u64(e->live_device_bytes));
    json_object_set_new(o, "held_unused_bytes", u64(e->held_unused));
    if (e->pool_sampled) {
      json_object_set_new(o, "pool_reserved_bytes", u64(e->pool_reserved));
      json_object_set_new(o, "pool_used_bytes", u64(e->pool_used));
    }
    if (e->view.blocks)
      json_object_set_new(o, "address_space", view_json(&e->view, out_index));
    json_array_append_new(ooms, o);
  }
  json_object_set_new(proc, "oom_events", ooms);
  json_t *timeline = json_array();
  for (size_t i = 0; i + 1 < gmemrt.ntimeline; i += 2) {
    json_t *pt = json_array();
    json_array_append_new(pt, json_real(gmemrt.timeline[i]));
    json_array_append_new(pt, u64((uint64_t)gmemrt.timeline[i + 1]));
    json_array_append_new(timeline, pt);
  }
  json_object_set_new(proc, "timeline", timeline);
  json_t *pools = json_array();
  for (int i = 0; i < gmemrt.npools; i++) {
    const gmemrt_pool *pl = &gmemrt.pools[i];
    json_t *o = json_object();
    json_object_set_new(o, "pool", str(pl->device >= 0 ? "default" : "program"));
    json_object_set_new(o, "device", json_integer(pl->device));
    json_object_set_new(o, "sampled", json_boolean(pl->sampled));
    json_object_set_new(o, "reserved_bytes", u64(pl->reserved));
    json_object_set_new(o, "used_bytes", u64(pl->used));
    json_object_set_new(o, "reserved_high_bytes", u64(pl->reserved_high));
    json_object_set_new(o, "used_high_bytes", u64(pl->used_high));
    json_array_append_new(pools, o);
  }
  json_object_set_new(proc, "pools", pools);
  if (gmemrt.peak_view.blocks)
    json_object_set_new(proc, "address_space_at_peak", view_json(&gmemrt.peak_view, out_index));
  free(out_index);
  json_object_set_new(root, "process", proc);
  json_t *sites = json_array();
  for (size_t i = 0; i < gmemrt.nsites; i++)
    if (!gmemrt_site_at(i)->wrapper) /* its calls are counted at its callers */
      json_array_append_new(sites, site_json(gmemrt_site_at(i)));
  json_object_set_new(root, "sites", sites);
  json_t *um = json_object();
  json_object_set_new(um, "available", json_boolean(gmemrt_um_available));
  json_object_set_new(um, "reason", str(gmemrt_um_reason()));
  json_object_set_new(um, "unattributed", um_json(&gmemrt_um_unattributed));
  json_t *kinds = json_object();
  for (int k = 0; k < 16; k++)
    if (gmemrt_um_records[k]) {
      char key[8];
      snprintf(key, sizeof key, "%d", k);
      json_object_set_new(kinds, key, u64(gmemrt_um_records[k]));
    }
  json_object_set_new(um, "records_by_counter_kind", kinds);
  json_object_set_new(root, "unified_memory", um);
  json_t *torch_view = gmemrt_torch_view_json();
  if (torch_view)
    json_object_set_new(root, "torch_view", torch_view);
  json_t *nv = json_object();
  json_object_set_new(nv, "available", json_boolean(gmemrt_nvml_available));
  json_object_set_new(nv, "reason", str(gmemrt_nvml_reason()));
  json_t *samples = json_array();
  for (size_t i = 0; i < gmemrt.nnvml; i++) {
    const gmemrt_nvml_sample *x = &gmemrt.nvml_samples[i];
    json_t *row = json_array(); /* t_ms, device, used, total, sm %, memory-bandwidth % */
    json_array_append_new(row, json_real(x->t_ms));
    json_array_append_new(row, json_integer(x->device));
    json_array_append_new(row, u64(x->used));
    json_array_append_new(row, u64(x->total));
    json_array_append_new(row, json_integer(x->sm_util));
    json_array_append_new(row, json_integer(x->mem_util));
    json_array_append_new(samples, row);
  }
  json_object_set_new(nv, "columns",
                      json_pack("[ssssss]", "t_ms", "device", "used_bytes", "total_bytes",
                                "sm_util_percent", "mem_util_percent"));
  json_object_set_new(nv, "samples", samples);
  json_object_set_new(root, "nvml", nv);
  json_t *rt = json_object();
  json_object_set_new(rt, "live_table_bytes", u64(gmemrt.live_cap * sizeof(*gmemrt.live)));
  json_object_set_new(rt, "stack_depth", json_integer(gmemrt_opt.stack_depth));
  json_t *attach = json_object();
#if defined(GMEMRT_INJECT)
  json_object_set_new(attach, "way", str("injection"));
  json_object_set_new(attach, "entry_points_wrapped", u64(gmemrt_attach.entry_points_wrapped));
  json_object_set_new(attach, "entry_points_adopted", u64(gmemrt_attach.entry_points_adopted));
  json_object_set_new(attach, "entry_points_adopted_in", str(gmemrt_attach.adopted_in));
  json_object_set_new(attach, "wrapper_calls", u64(gmemrt_attach_wrapper_calls()));
  json_object_set_new(attach, "caller_shortcut_failures", u64(gmemrt_attach.shortcut_failures));
  json_t *handed = json_array();
  for (int i = 0; i < gmemrt_attach.nhanded_over; i++)
    json_array_append_new(handed, str(gmemrt_attach.handed_over[i]));
  json_object_set_new(attach, "apis_on_wrappers", handed);
  json_object_set_new(attach, "driver_callbacks", json_boolean(gmemrt_attach.driver_callbacks));
  json_object_set_new(attach, "driver_callbacks_reason", str(gmemrt_attach.driver_callbacks));
#elif defined(GMEMRT_PRELOAD)
  json_object_set_new(attach, "way", str("preload"));
#else
  json_object_set_new(attach, "way", str("source"));
#endif
  json_object_set_new(rt, "attach", attach);
  json_object_set_new(root, "runtime", rt);
  return root;
}

static char *output_path(void) {
  const char *pattern = gmemrt_opt.output;
  size_t cap = strlen(pattern) + 32;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  size_t o = 0;
  for (const char *p = pattern; *p && o + 24 < cap; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      o += (size_t)snprintf(out + o, cap - o, "%d", (int)getpid());
      p++;
    } else {
      out[o++] = *p;
    }
  }
  out[o] = 0;
  return out;
}

int gmemrt_write(const char *reason) {
  gmemrt_init();
  if (gmemrt_opt.disabled || writing)
    return -1;
  writing = 1;
  int in_signal = strncmp(reason, "signal", 6) == 0;
  if (!in_signal)
    gmemrt_um_flush(); /* CUPTI delivers its last records through a callback that takes the lock */
  if (in_signal) {
    /* the signal may have interrupted a thread holding the lock: wait a little, never forever */
    int locked = 0;
    for (int i = 0; i < 200 && !locked; i++) {
      locked = gmemrt_trylock();
      if (!locked)
        usleep(1000);
    }
    if (!locked) {
      gmemrt_warn("the telemetry tables are busy; no file written for %s", reason);
      writing = 0;
      return -1;
    }
  } else {
    gmemrt_lock();
  }
  json_t *root = build(reason);
  gmemrt_unlock();
  char *path = output_path();
  int rc = -1;
  if (path) {
    /* Written beside the path and renamed into place, as gmemlint writes its files
     * (analyzer/support/atomic_file.c), but not shared with it: this runs inside the user's
     * program, maybe from a signal handler or at exit, where a failed allocation must cost the
     * file and never the program (the analyzer's helpers exit on one), and every function this
     * library links is a symbol in that program. */
    char *tmp = malloc(strlen(path) + 32);
    if (tmp) {
      sprintf(tmp, "%s.tmp.%d", path, (int)getpid());
      if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0 &&
          rename(tmp, path) == 0) {
        rc = 0;
        if (gmemrt_opt.verbose)
          fprintf(stderr, "gmemrt: telemetry written to %s (%s)\n", path, reason);
      } else {
        static int warned;
        if (!warned++)
          gmemrt_warn("cannot write telemetry to %s: %s", path, strerror(errno));
        remove(tmp);
      }
      free(tmp);
    }
    free(path);
  }
  json_decref(root);
  writing = 0;
  return rc;
}

int gmemrt_dump(void) {
  return gmemrt_write("dump");
}

int gmem_dump(void) {
  return gmemrt_write("dump");
}
