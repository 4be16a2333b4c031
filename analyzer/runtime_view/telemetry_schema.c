/* Reading one telemetry file: its JSON checked strictly against the schema
 * (docs/telemetry-format.md), naming the file and field of anything wrong, before
 * telemetry_merge.c merges it into the table. */
#include "runtime_view/json_schema.h"
#include "runtime_view/oom_verdict.h"
#include "runtime_view/telemetry_private.h"
#include "runtime_view/torch_view.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the schema: what each object may hold, and what it must ---- */

static const schema_field top_fields[] = {
    {"version", SCHEMA_UINT, 1}, {"tool", SCHEMA_STR, 0},    {"pid", SCHEMA_INT, 0},
    {"program", SCHEMA_STR, 0},  {"reason", SCHEMA_STR, 0},  {"duration_ms", SCHEMA_SPAN_MS, 0},
    {"process", SCHEMA_OBJ, 1},  {"sites", SCHEMA_ARR, 1},   {"unified_memory", SCHEMA_OBJ, 0},
    {"nvml", SCHEMA_OBJ, 0},     {"runtime", SCHEMA_OBJ, 0}, {"torch_view", SCHEMA_OBJ, 0},
};
static const schema_field process_fields[] = {
    {"peak_live_bytes", SCHEMA_UINT, 1},
    {"live_bytes", SCHEMA_UINT, 1},
    {"live_count", SCHEMA_UINT, 0},
    {"steps", SCHEMA_UINT, 0},
    {"oom_events", SCHEMA_ARR, 0},
    {"timeline", SCHEMA_ARR, 0},
    {"pools", SCHEMA_ARR, 0},
    {"baseline_used_bytes", SCHEMA_UINT_OR_NULL, 0},
    {"address_space_at_peak", SCHEMA_OBJ, 0},
    {"devices", SCHEMA_ARR, 0},
};
static const schema_field site_fields[] = {
    {"file", SCHEMA_STR_OR_NULL, 1}, /* null: a return-address site without debug information */
    {"line", SCHEMA_U32, 1},
    {"column", SCHEMA_U32, 0},
    {"api", SCHEMA_STR, 1},
    {"module", SCHEMA_STR_OR_NULL, 0},
    {"module_offset", SCHEMA_STR, 0},
    {"function", SCHEMA_STR_OR_NULL, 0},
    {"debug_info", SCHEMA_BOOL, 0},
    {"kind", SCHEMA_STR, 1},
    {"family", SCHEMA_STR, 0},
    {"device", SCHEMA_I32, 0},
    {"calls", SCHEMA_UINT, 0}, /* required on alloc sites: see check_site */
    {"failed_calls", SCHEMA_UINT, 0},
    {"failures", SCHEMA_OBJ, 0},
    {"bytes_total", SCHEMA_UINT, 0},
    {"bytes_min", SCHEMA_UINT, 0},
    {"bytes_max", SCHEMA_UINT, 0},
    {"distinct_sizes", SCHEMA_ARR, 0},
    {"distinct_sizes_truncated", SCHEMA_BOOL, 0},
    {"increasing_sizes", SCHEMA_UINT, 0},
    {"peak_live_bytes", SCHEMA_UINT, 0},
    {"live_bytes", SCHEMA_UINT, 0},
    {"live_count", SCHEMA_UINT, 0},
    {"frees", SCHEMA_OBJ, 0},
    {"wrong_family_frees", SCHEMA_UINT, 0},
    {"double_frees", SCHEMA_UINT, 0},
    {"alloc_ns", SCHEMA_UINT, 0},
    {"alloc_timed_calls", SCHEMA_UINT, 0},
    {"free_calls", SCHEMA_UINT, 0},
    {"free_ns", SCHEMA_UINT, 0},
    {"copies", SCHEMA_UINT, 0},
    {"copy_bytes", SCHEMA_UINT, 0},
    {"copy_ns", SCHEMA_UINT, 0},
    {"copy_direction", SCHEMA_STR, 0},
    {"copies_strided", SCHEMA_UINT, 0},
    {"regrowths", SCHEMA_UINT, 0},
    {"regrowth_chain_max", SCHEMA_UINT, 0},
    {"regrowth_copies", SCHEMA_UINT, 0},
    {"regrowth_copy_bytes", SCHEMA_UINT, 0},
    {"active_ms", SCHEMA_ARR, 0},
    {"prefetches", SCHEMA_UINT, 0},
    {"step_live_bytes", SCHEMA_ARR, 0},
    {"unified_memory", SCHEMA_OBJ, 0},
    {"stacks", SCHEMA_ARR, 0},
};
static const schema_field um_fields[] = {
    {"gpu_page_faults", SCHEMA_UINT, 0},
    {"cpu_page_faults", SCHEMA_UINT, 0},
    {"htod_bytes", SCHEMA_UINT, 0},
    {"dtoh_bytes", SCHEMA_UINT, 0},
    {"thrashing", SCHEMA_UINT, 0},
    {"htod_on_demand_bytes", SCHEMA_UINT, 0},
    {"htod_prefetch_bytes", SCHEMA_UINT, 0},
    {"htod_speculative_bytes", SCHEMA_UINT, 0},
    {"htod_user_prefetch_bytes", SCHEMA_UINT, 0},
    {"direction_changes", SCHEMA_UINT, 0},
    {"block_direction_changes_max", SCHEMA_UINT, 0},
    {"steps_moved", SCHEMA_UINT, 0},
    {"steps_both_ways", SCHEMA_UINT, 0},
    {"migrating_ms", SCHEMA_ARR, 0},
};
static const schema_field torch_view_fields[] = {{"state", SCHEMA_STR, 1},
                                                 {"reason", SCHEMA_STR, 0}};
static const schema_field um_top_fields[] = {
    {"available", SCHEMA_BOOL, 1}, {"reason", SCHEMA_STR, 0}, {"unattributed", SCHEMA_OBJ, 0}};
static const schema_field oom_fields[] = {
    {"file", SCHEMA_STR, 0},
    {"line", SCHEMA_U32, 0},
    {"column", SCHEMA_U32, 0},
    {"api", SCHEMA_STR, 0},
    {"requested_bytes", SCHEMA_UINT, 1},
    {"free_bytes", SCHEMA_UINT, 1},
    {"total_bytes", SCHEMA_UINT, 1},
    {"largest_block_bytes", SCHEMA_UINT_OR_NULL, 0},
    {"live_bytes", SCHEMA_UINT, 0},
    {"verdict", SCHEMA_STR, 0}, /* version 1: required; see check_oom */
    {"time_ms", SCHEMA_MS, 0},
    {"live_device_bytes", SCHEMA_UINT, 0},
    {"held_unused_bytes", SCHEMA_UINT, 0},
    {"pool_reserved_bytes", SCHEMA_UINT, 0},
    {"pool_used_bytes", SCHEMA_UINT, 0},
    {"address_space", SCHEMA_OBJ, 0},
    {"device", SCHEMA_I32, 0},
};
static const schema_field pool_fields[] = {
    {"pool", SCHEMA_STR, 0},
    {"device", SCHEMA_I32, 0},
    {"sampled", SCHEMA_BOOL, 0},
    {"reserved_bytes", SCHEMA_UINT, 1},
    {"used_bytes", SCHEMA_UINT, 1},
    {"reserved_high_bytes", SCHEMA_UINT, 0},
    {"used_high_bytes", SCHEMA_UINT, 0},
};
static const schema_field stack_fields[] = {{"count", SCHEMA_UINT, 1}, {"frames", SCHEMA_ARR, 1}};
static const schema_field space_fields[] = {
    {"time_ms", SCHEMA_MS, 0},
    {"live_bytes", SCHEMA_UINT, 0},
    {"base", SCHEMA_STR, 1},
    {"span_bytes", SCHEMA_UINT, 0},
    {"block_bytes", SCHEMA_UINT, 0},
    {"gaps", SCHEMA_UINT, 0},
    {"gap_bytes", SCHEMA_UINT, 0},
    {"largest_gap_bytes", SCHEMA_UINT, 0},
    {"blocks_left_out", SCHEMA_UINT, 0},
    {"blocks", SCHEMA_ARR, 1},
};
static const schema_field nvml_fields[] = {{"available", SCHEMA_BOOL, 1},
                                           {"reason", SCHEMA_STR, 0},
                                           {"columns", SCHEMA_ARR, 0},
                                           {"samples", SCHEMA_ARR, 0}};
static const schema_field device_fields[] = {
    {"device", SCHEMA_I32, 1},           {"allocations", SCHEMA_UINT, 0},
    {"peak_live_bytes", SCHEMA_UINT, 0}, {"live_bytes", SCHEMA_UINT, 0},
    {"live_count", SCHEMA_UINT, 0},      {"baseline_used_bytes", SCHEMA_UINT_OR_NULL, 0},
};

static int check_window(schema_reader *r, const json_t *o, const char *key, const char *where) {
  const json_t *a = json_object_get(o, key), *v;
  size_t i;
  char value[32];
  json_array_foreach(a, i, v) {
    if (json_is_number(v) && !schema_type_ok(v, SCHEMA_MS))
      return schema_bad(r, "%s.%s[%zu]: expected %s, found %s", where, key, i,
                        schema_expected(SCHEMA_MS),
                        schema_found(v, SCHEMA_MS, value, sizeof value));
  }
  return 1;
}

static int check_site(schema_reader *r, const json_t *s, size_t i) {
  char where[64];
  snprintf(where, sizeof where, "sites[%zu]", i);
  if (!schema_check(r, s, where, site_fields, N(site_fields)))
    return 0;
  const char *kind = json_string_value(json_object_get(s, "kind"));
  if (strcmp(kind, "alloc") && strcmp(kind, "free") && strcmp(kind, "other"))
    return schema_bad(r, "%s.kind: expected \"alloc\", \"free\" or \"other\", found \"%s\"", where,
                      kind);
  if (strcmp(kind, "alloc") == 0 && !json_object_get(s, "calls"))
    return schema_bad(r, "%s: missing \"calls\" (an alloc site)", where);
  if (!check_window(r, s, "active_ms", where))
    return 0;
  char sub[96];
  const json_t *v;
  if ((v = json_object_get(s, "distinct_sizes"))) {
    snprintf(sub, sizeof sub, "%s.distinct_sizes", where);
    if (!schema_check_elements(r, v, sub, SCHEMA_UINT))
      return 0;
  }
  if ((v = json_object_get(s, "step_live_bytes"))) {
    snprintf(sub, sizeof sub, "%s.step_live_bytes", where);
    if (!schema_check_elements(r, v, sub, SCHEMA_UINT))
      return 0;
  }
  static const char *const counted_by_name[] = {"frees", "failures"};
  for (size_t k = 0; k < N(counted_by_name); k++)
    if ((v = json_object_get(s, counted_by_name[k]))) {
      const char *key;
      const json_t *n;
      json_object_foreach((json_t *)v, key, n) {
        if (!schema_type_ok(n, SCHEMA_UINT))
          return schema_bad(r, "%s.%s.%s: expected a non-negative integer, found %s", where,
                            counted_by_name[k], key, schema_kind(n));
      }
    }
  if ((v = json_object_get(s, "unified_memory"))) {
    snprintf(sub, sizeof sub, "%s.unified_memory", where);
    if (!schema_check(r, v, sub, um_fields, N(um_fields)) ||
        !check_window(r, v, "migrating_ms", sub))
      return 0;
  }
  if ((v = json_object_get(s, "stacks"))) {
    size_t k;
    const json_t *st;
    json_array_foreach(v, k, st) {
      snprintf(sub, sizeof sub, "%s.stacks[%zu]", where, k);
      if (!schema_check(r, st, sub, stack_fields, N(stack_fields)))
        return 0;
      char frames[128];
      snprintf(frames, sizeof frames, "%s.frames", sub);
      if (!schema_check_elements(r, json_object_get(st, "frames"), frames, SCHEMA_STR))
        return 0;
    }
  }
  return 1;
}

/* An out-of-memory event. Version 1 carried the runtime's verdict; version 2 carries only the
 * figures gmemlint judges it from, held memory the one version 1 files may lack. */
static int check_oom(schema_reader *r, const json_t *e, const char *where, json_int_t version) {
  if (!schema_check(r, e, where, oom_fields, N(oom_fields)))
    return 0;
  const json_t *verdict = json_object_get(e, "verdict");
  if (version == 1 && !verdict)
    return schema_bad(r, "%s: missing \"verdict\"", where);
  if (version >= 2 && !json_object_get(e, "held_unused_bytes"))
    return schema_bad(r, "%s: missing \"held_unused_bytes\" (its verdict is judged from it)",
                      where);
  if (verdict && gm_oom_verdict_parse(json_string_value(verdict)) < 0)
    return schema_bad(r,
                      "%s.verdict: expected \"fragmentation\", \"capacity\", \"transient\" or "
                      "\"unknown\", found \"%s\"",
                      where, json_string_value(verdict));
  return 1;
}

/* arr[i] is an array whose first elements have these types ("process.timeline[3]"). */
static int check_tuple(schema_reader *r, const json_t *v, const char *where, size_t i,
                       const enum schema_type *types, size_t n) {
  if (!json_is_array(v) || json_array_size(v) < n)
    return schema_bad(r, "%s[%zu]: expected an array of %zu numbers, found %s", where, i, n,
                      json_is_array(v) ? "a shorter array" : schema_kind(v));
  char value[32];
  for (size_t k = 0; k < n; k++)
    if (!schema_type_ok(json_array_get(v, k), types[k]))
      return schema_bad(r, "%s[%zu][%zu]: expected %s, found %s", where, i, k,
                        schema_expected(types[k]),
                        schema_found(json_array_get(v, k), types[k], value, sizeof value));
  return 1;
}

/* An address-space view: its blocks are [offset, bytes, site index] with the index into this
 * file's sites, or -1. */
static int check_space(schema_reader *r, const json_t *o, const char *where, size_t nsites) {
  if (!schema_check(r, o, where, space_fields, N(space_fields)))
    return 0;
  const char *base = json_string_value(json_object_get(o, "base"));
  char *end = NULL;
  if (strncmp(base, "0x", 2) != 0 || (strtoull(base + 2, &end, 16), *end) || end == base + 2)
    return schema_bad(r, "%s.base: expected a hexadecimal address (0x...), found \"%s\"", where,
                      base);
  char sub[96];
  snprintf(sub, sizeof sub, "%s.blocks", where);
  static const enum schema_type block[] = {SCHEMA_UINT, SCHEMA_UINT, SCHEMA_INT};
  size_t i;
  const json_t *b;
  json_array_foreach(json_object_get(o, "blocks"), i, b) {
    if (!check_tuple(r, b, sub, i, block, N(block)))
      return 0;
    json_int_t site = json_integer_value(json_array_get(b, 2));
    if (site < -1 || (site >= 0 && (size_t)site >= nsites))
      return schema_bad(r, "%s[%zu][2]: site index %lld is not in sites (%zu sites)", sub, i,
                        (long long)site, nsites);
  }
  return 1;
}

static int check_document(schema_reader *r, const json_t *root) {
  if (!json_is_object(root))
    return schema_bad(r, "not a telemetry file: expected a JSON object, found %s",
                      schema_kind(root));
  const json_t *tool = json_object_get(root, "tool");
  if (json_is_string(tool) && strcmp(json_string_value(tool), "gmemrt") != 0)
    return schema_bad(r,
                      "not a telemetry file: its tool is \"%s\", not \"gmemrt\" (gmemlint's own "
                      "findings, *.gmemlint.json, are given as inputs, not with --telemetry)",
                      json_string_value(tool));
  const json_t *version = json_object_get(root, "version");
  if (!version)
    return schema_bad(r, "missing \"version\": not a gmemrt telemetry file?");
  if (!json_is_integer(version))
    return schema_bad(r, "version: expected an integer, found %s", schema_kind(version));
  json_int_t format_version = json_integer_value(version);
  if (format_version < GM_TELEMETRY_OLDEST_VERSION || format_version > GM_TELEMETRY_VERSION)
    return schema_bad(
        r,
        "telemetry version %lld is not supported (this gmemlint reads versions %d to %d); "
        "use the gmemlint that matches the runtime",
        (long long)format_version, GM_TELEMETRY_OLDEST_VERSION, GM_TELEMETRY_VERSION);
  if (!schema_check(r, root, "telemetry", top_fields, N(top_fields)))
    return 0;
  const json_t *proc = json_object_get(root, "process");
  if (!schema_check(r, proc, "process", process_fields, N(process_fields)))
    return 0;
  const json_t *v;
  size_t i;
  const json_t *e;
  char where[64];
  if ((v = json_object_get(proc, "oom_events")))
    json_array_foreach(v, i, e) {
      snprintf(where, sizeof where, "process.oom_events[%zu]", i);
      if (!check_oom(r, e, where, format_version))
        return 0;
    }
  if ((v = json_object_get(proc, "pools")))
    json_array_foreach(v, i, e) {
      snprintf(where, sizeof where, "process.pools[%zu]", i);
      if (!schema_check(r, e, where, pool_fields, N(pool_fields)))
        return 0;
    }
  size_t nsites = json_array_size(json_object_get(root, "sites"));
  if ((v = json_object_get(proc, "oom_events")))
    json_array_foreach(v, i, e) {
      snprintf(where, sizeof where, "process.oom_events[%zu].address_space", i);
      const json_t *space = json_object_get(e, "address_space");
      if (space && !check_space(r, space, where, nsites))
        return 0;
    }
  if ((v = json_object_get(proc, "address_space_at_peak")) &&
      !check_space(r, v, "process.address_space_at_peak", nsites))
    return 0;
  static const enum schema_type point[] = {SCHEMA_MS, SCHEMA_UINT};
  if ((v = json_object_get(proc, "timeline")))
    json_array_foreach(v, i, e) {
      if (!check_tuple(r, e, "process.timeline", i, point, N(point)))
        return 0;
    }
  if ((v = json_object_get(proc, "devices")))
    json_array_foreach(v, i, e) {
      snprintf(where, sizeof where, "process.devices[%zu]", i);
      if (!schema_check(r, e, where, device_fields, N(device_fields)))
        return 0;
    }
  if ((v = json_object_get(root, "nvml"))) {
    if (!schema_check(r, v, "nvml", nvml_fields, N(nvml_fields)))
      return 0;
    /* t_ms, device, used_bytes, total_bytes, sm_util_percent, mem_util_percent */
    static const enum schema_type row[] = {SCHEMA_MS,   SCHEMA_I32, SCHEMA_UINT,
                                           SCHEMA_UINT, SCHEMA_U32, SCHEMA_U32};
    json_array_foreach(json_object_get(v, "samples"), i, e) {
      if (!check_tuple(r, e, "nvml.samples", i, row, N(row)))
        return 0;
    }
  }
  json_array_foreach(json_object_get(root, "sites"), i, e) {
    if (!check_site(r, e, i))
      return 0;
  }
  if ((v = json_object_get(root, "unified_memory")) &&
      !schema_check(r, v, "unified_memory", um_top_fields, N(um_top_fields)))
    return 0;
  if ((v = json_object_get(root, "torch_view"))) {
    if (!schema_check(r, v, "torch_view", torch_view_fields, N(torch_view_fields)))
      return 0;
    const char *state = json_string_value(json_object_get(v, "state"));
    if (strcmp(state, "on") != 0 && strcmp(state, "off") != 0)
      return schema_bad(r, "torch_view.state: expected \"on\" or \"off\", found \"%s\"", state);
  }
  return 1;
}

int gm_telemetry_load(gm_telemetry *t, const char *path, char *err, size_t errlen) {
  schema_reader r = {path, err, errlen};
  char real[PATH_MAX];
  const char *resolved = realpath(path, real);
  for (size_t i = 0; resolved && i < t->runs.len; i++)
    if (t->runs.items[i].real && strcmp(t->runs.items[i].real, resolved) == 0) {
      snprintf(err, errlen, "%s: given more than once; read once", path);
      return 2;
    }
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text)
    return schema_bad(&r, "cannot read: %s", strerror(errno));
  json_error_t jerr;
  json_t *root = json_loadb(text, len, 0, &jerr);
  free(text);
  if (!root) {
    snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column, jerr.text);
    return 0;
  }
  if (json_is_object(root) && gm_torch_is_companion(root)) { /* a companion given alone */
    json_decref(root);
    return gm_torch_load(t, path, err, errlen);
  }
  if (json_is_object(root) && json_object_get(root, "segments") &&
      json_object_get(root, "device_traces")) {
    json_decref(root);
    return schema_bad(&r,
                      "a PyTorch snapshot, not a telemetry file: give its companion (T.torch.json, "
                      "which names it) or the telemetry file beside that");
  }
  int ok = check_document(&r, root);
  if (ok)
    gm_telemetry_merge_checked(t, root, path, resolved);
  json_decref(root);
  char *companion = ok ? gm_torch_companion_of(path) : NULL;
  if (companion && access(companion, F_OK) == 0)
    ok = gm_torch_load(t, companion, err, errlen);
  free(companion);
  return ok;
}
