/* Reading one telemetry file: its JSON checked strictly against the schema
 * (docs/telemetry-format.md), naming the file and field of anything wrong, before
 * telemetry_merge.c merges it into the table. */
#include "runtime_view/oom_verdict.h"
#include "runtime_view/telemetry_private.h"
#include "runtime_view/torch_view.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the schema: what each object may hold, and what it must ---- */

/* F_U32, F_I32 and F_MS are bounded by what holds them: a line, a column or a percentage is an
 * unsigned int, a device an int, and a time in milliseconds stays within MAX_MS so that the trace's
 * nanosecond-rounded microseconds never overflow. */
enum ftype {
  F_UINT,
  F_INT,
  F_NUM,
  F_STR,
  F_BOOL,
  F_ARR,
  F_OBJ,
  F_UINT_OR_NULL,
  F_STR_OR_NULL,
  F_U32,
  F_I32,
  F_MS,
  F_SPAN_MS /* a length of time: F_MS's bound, and never negative */
};

/* about 31.7 years; 9.2e12 ms is where the trace's nanoseconds overflow a long long */
#define MAX_MS 1e12

typedef struct field {
  const char *name;
  enum ftype type;
  int required;
} field;

static const field top_fields[] = {
    {"version", F_UINT, 1}, {"tool", F_STR, 0},    {"pid", F_INT, 0},
    {"program", F_STR, 0},  {"reason", F_STR, 0},  {"duration_ms", F_SPAN_MS, 0},
    {"process", F_OBJ, 1},  {"sites", F_ARR, 1},   {"unified_memory", F_OBJ, 0},
    {"nvml", F_OBJ, 0},     {"runtime", F_OBJ, 0},
};
static const field process_fields[] = {
    {"peak_live_bytes", F_UINT, 1},
    {"live_bytes", F_UINT, 1},
    {"live_count", F_UINT, 0},
    {"steps", F_UINT, 0},
    {"oom_events", F_ARR, 0},
    {"timeline", F_ARR, 0},
    {"pools", F_ARR, 0},
    {"baseline_used_bytes", F_UINT_OR_NULL, 0},
    {"address_space_at_peak", F_OBJ, 0},
    {"devices", F_ARR, 0},
};
static const field site_fields[] = {
    {"file", F_STR_OR_NULL, 1}, /* null: a return-address site without debug information */
    {"line", F_U32, 1},
    {"column", F_U32, 0},
    {"api", F_STR, 1},
    {"module", F_STR_OR_NULL, 0},
    {"module_offset", F_STR, 0},
    {"function", F_STR_OR_NULL, 0},
    {"debug_info", F_BOOL, 0},
    {"kind", F_STR, 1},
    {"family", F_STR, 0},
    {"device", F_I32, 0},
    {"calls", F_UINT, 0}, /* required on alloc sites: see check_site */
    {"failed_calls", F_UINT, 0},
    {"failures", F_OBJ, 0},
    {"bytes_total", F_UINT, 0},
    {"bytes_min", F_UINT, 0},
    {"bytes_max", F_UINT, 0},
    {"distinct_sizes", F_ARR, 0},
    {"distinct_sizes_truncated", F_BOOL, 0},
    {"increasing_sizes", F_UINT, 0},
    {"peak_live_bytes", F_UINT, 0},
    {"live_bytes", F_UINT, 0},
    {"live_count", F_UINT, 0},
    {"frees", F_OBJ, 0},
    {"wrong_family_frees", F_UINT, 0},
    {"double_frees", F_UINT, 0},
    {"alloc_ns", F_UINT, 0},
    {"alloc_timed_calls", F_UINT, 0},
    {"free_calls", F_UINT, 0},
    {"free_ns", F_UINT, 0},
    {"copies", F_UINT, 0},
    {"copy_bytes", F_UINT, 0},
    {"copy_ns", F_UINT, 0},
    {"copy_direction", F_STR, 0},
    {"copies_strided", F_UINT, 0},
    {"regrowths", F_UINT, 0},
    {"regrowth_chain_max", F_UINT, 0},
    {"regrowth_copies", F_UINT, 0},
    {"regrowth_copy_bytes", F_UINT, 0},
    {"active_ms", F_ARR, 0},
    {"prefetches", F_UINT, 0},
    {"step_live_bytes", F_ARR, 0},
    {"unified_memory", F_OBJ, 0},
    {"stacks", F_ARR, 0},
};
static const field um_fields[] = {
    {"gpu_page_faults", F_UINT, 0},
    {"cpu_page_faults", F_UINT, 0},
    {"htod_bytes", F_UINT, 0},
    {"dtoh_bytes", F_UINT, 0},
    {"thrashing", F_UINT, 0},
    {"htod_on_demand_bytes", F_UINT, 0},
    {"htod_prefetch_bytes", F_UINT, 0},
    {"htod_speculative_bytes", F_UINT, 0},
    {"htod_user_prefetch_bytes", F_UINT, 0},
    {"direction_changes", F_UINT, 0},
    {"block_direction_changes_max", F_UINT, 0},
    {"steps_moved", F_UINT, 0},
    {"steps_both_ways", F_UINT, 0},
    {"migrating_ms", F_ARR, 0},
};
static const field um_top_fields[] = {
    {"available", F_BOOL, 1}, {"reason", F_STR, 0}, {"unattributed", F_OBJ, 0}};
static const field oom_fields[] = {
    {"file", F_STR, 0},
    {"line", F_U32, 0},
    {"column", F_U32, 0},
    {"api", F_STR, 0},
    {"requested_bytes", F_UINT, 1},
    {"free_bytes", F_UINT, 1},
    {"total_bytes", F_UINT, 1},
    {"largest_block_bytes", F_UINT_OR_NULL, 0},
    {"live_bytes", F_UINT, 0},
    {"verdict", F_STR, 0}, /* version 1: required; see check_oom */
    {"time_ms", F_MS, 0},
    {"live_device_bytes", F_UINT, 0},
    {"held_unused_bytes", F_UINT, 0},
    {"pool_reserved_bytes", F_UINT, 0},
    {"pool_used_bytes", F_UINT, 0},
    {"address_space", F_OBJ, 0},
    {"device", F_I32, 0},
};
static const field pool_fields[] = {
    {"pool", F_STR, 0},
    {"device", F_I32, 0},
    {"sampled", F_BOOL, 0},
    {"reserved_bytes", F_UINT, 1},
    {"used_bytes", F_UINT, 1},
    {"reserved_high_bytes", F_UINT, 0},
    {"used_high_bytes", F_UINT, 0},
};
static const field stack_fields[] = {{"count", F_UINT, 1}, {"frames", F_ARR, 1}};
static const field space_fields[] = {
    {"time_ms", F_MS, 0},      {"live_bytes", F_UINT, 0},        {"base", F_STR, 1},
    {"span_bytes", F_UINT, 0}, {"block_bytes", F_UINT, 0},       {"gaps", F_UINT, 0},
    {"gap_bytes", F_UINT, 0},  {"largest_gap_bytes", F_UINT, 0}, {"blocks_left_out", F_UINT, 0},
    {"blocks", F_ARR, 1},
};
static const field nvml_fields[] = {
    {"available", F_BOOL, 1}, {"reason", F_STR, 0}, {"columns", F_ARR, 0}, {"samples", F_ARR, 0}};
static const field device_fields[] = {
    {"device", F_I32, 1},           {"allocations", F_UINT, 0},
    {"peak_live_bytes", F_UINT, 0}, {"live_bytes", F_UINT, 0},
    {"live_count", F_UINT, 0},      {"baseline_used_bytes", F_UINT_OR_NULL, 0},
};

static const char *type_name(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    return "an object";
  case JSON_ARRAY:
    return "an array";
  case JSON_STRING:
    return "a string";
  case JSON_INTEGER:
    return json_integer_value(v) < 0 ? "a negative integer" : "an integer";
  case JSON_REAL:
    return "a number with a fraction";
  case JSON_TRUE:
  case JSON_FALSE:
    return "a boolean";
  case JSON_NULL:
    return "null";
  }
  return "something else";
}

static int type_ok(const json_t *v, enum ftype t) {
  switch (t) {
  case F_UINT:
    return json_is_integer(v) && json_integer_value(v) >= 0;
  case F_UINT_OR_NULL:
    return json_is_null(v) || (json_is_integer(v) && json_integer_value(v) >= 0);
  case F_INT:
    return json_is_integer(v);
  case F_NUM:
    return json_is_number(v);
  case F_U32:
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT_MAX;
  case F_I32:
    return json_is_integer(v) && json_integer_value(v) >= INT_MIN &&
           json_integer_value(v) <= INT_MAX;
  case F_MS:
    return json_is_number(v) && json_number_value(v) >= -MAX_MS && json_number_value(v) <= MAX_MS;
  case F_SPAN_MS:
    return json_is_number(v) && json_number_value(v) >= 0 && json_number_value(v) <= MAX_MS;
  case F_STR:
    return json_is_string(v);
  case F_STR_OR_NULL:
    return json_is_null(v) || json_is_string(v);
  case F_BOOL:
    return json_is_boolean(v);
  case F_ARR:
    return json_is_array(v);
  case F_OBJ:
    return json_is_object(v);
  }
  return 0;
}

static const char *expected(enum ftype t) {
  static const char *const names[] = {[F_UINT] = "a non-negative integer",
                                      [F_INT] = "an integer",
                                      [F_NUM] = "a number",
                                      [F_STR] = "a string",
                                      [F_BOOL] = "true or false",
                                      [F_ARR] = "an array",
                                      [F_OBJ] = "an object",
                                      [F_UINT_OR_NULL] = "a non-negative integer or null",
                                      [F_STR_OR_NULL] = "a string or null",
                                      [F_U32] = "a non-negative integer up to 4294967295",
                                      [F_I32] = "an integer from -2147483648 to 2147483647",
                                      [F_MS] = "a number of milliseconds from -1e12 to 1e12",
                                      [F_SPAN_MS] = "a number of milliseconds from 0 to 1e12"};
  return names[t];
}

/* What v is, for a message: its value when it has the kind t wants but is out of its range
 * ("4294967304"), otherwise its kind ("a string"). */
static const char *found(const json_t *v, enum ftype t, char *buf, size_t len) {
  int bounded_int = (t == F_U32 || t == F_I32) && json_is_integer(v);
  if (bounded_int && (t == F_I32 || json_integer_value(v) >= 0)) {
    snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    return buf;
  }
  if ((t == F_MS || t == F_SPAN_MS) && json_is_number(v)) {
    snprintf(buf, len, "%g", json_number_value(v));
    return buf;
  }
  return type_name(v);
}

typedef struct reader {
  const char *path;
  char *err;
  size_t errlen;
} reader;

static int bad(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(reader *r, const char *fmt, ...) {
  int n = snprintf(r->err, r->errlen, "%s: ", r->path);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < r->errlen)
    vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return 0;
}

/* Checks obj against fields; `where` names it in messages ("sites[3]"). */
static int check_fields(reader *r, const json_t *obj, const char *where, const field *fields,
                        size_t n) {
  if (!json_is_object(obj))
    return bad(r, "%s: expected an object, found %s", where, type_name(obj));
  for (size_t i = 0; i < n; i++) {
    const json_t *v = json_object_get(obj, fields[i].name);
    if (!v) {
      if (fields[i].required)
        return bad(r, "%s: missing \"%s\"", where, fields[i].name);
      continue;
    }
    char value[32];
    if (!type_ok(v, fields[i].type))
      return bad(r, "%s.%s: expected %s, found %s", where, fields[i].name, expected(fields[i].type),
                 found(v, fields[i].type, value, sizeof value));
  }
  return 1;
}

static int check_elements(reader *r, const json_t *arr, const char *where, enum ftype t) {
  size_t i;
  const json_t *v;
  char value[32];
  json_array_foreach(arr, i, v) {
    if (!type_ok(v, t))
      return bad(r, "%s[%zu]: expected %s, found %s", where, i, expected(t),
                 found(v, t, value, sizeof value));
  }
  return 1;
}

/* A [first, last] window of milliseconds (active_ms, migrating_ms): the reader uses it when both
 * are numbers, so a number out of range is an error like any other time. */
static int check_window(reader *r, const json_t *o, const char *key, const char *where) {
  const json_t *a = json_object_get(o, key), *v;
  size_t i;
  char value[32];
  json_array_foreach(a, i, v) {
    if (json_is_number(v) && !type_ok(v, F_MS))
      return bad(r, "%s.%s[%zu]: expected %s, found %s", where, key, i, expected(F_MS),
                 found(v, F_MS, value, sizeof value));
  }
  return 1;
}

static int check_site(reader *r, const json_t *s, size_t i) {
  char where[64];
  snprintf(where, sizeof where, "sites[%zu]", i);
  if (!check_fields(r, s, where, site_fields, N(site_fields)))
    return 0;
  const char *kind = json_string_value(json_object_get(s, "kind"));
  if (strcmp(kind, "alloc") && strcmp(kind, "free") && strcmp(kind, "other"))
    return bad(r, "%s.kind: expected \"alloc\", \"free\" or \"other\", found \"%s\"", where, kind);
  if (strcmp(kind, "alloc") == 0 && !json_object_get(s, "calls"))
    return bad(r, "%s: missing \"calls\" (an alloc site)", where);
  if (!check_window(r, s, "active_ms", where))
    return 0;
  char sub[96];
  const json_t *v;
  if ((v = json_object_get(s, "distinct_sizes"))) {
    snprintf(sub, sizeof sub, "%s.distinct_sizes", where);
    if (!check_elements(r, v, sub, F_UINT))
      return 0;
  }
  if ((v = json_object_get(s, "step_live_bytes"))) {
    snprintf(sub, sizeof sub, "%s.step_live_bytes", where);
    if (!check_elements(r, v, sub, F_UINT))
      return 0;
  }
  static const char *const counted_by_name[] = {"frees", "failures"};
  for (size_t k = 0; k < N(counted_by_name); k++)
    if ((v = json_object_get(s, counted_by_name[k]))) {
      const char *key;
      const json_t *n;
      json_object_foreach((json_t *)v, key, n) {
        if (!type_ok(n, F_UINT))
          return bad(r, "%s.%s.%s: expected a non-negative integer, found %s", where,
                     counted_by_name[k], key, type_name(n));
      }
    }
  if ((v = json_object_get(s, "unified_memory"))) {
    snprintf(sub, sizeof sub, "%s.unified_memory", where);
    if (!check_fields(r, v, sub, um_fields, N(um_fields)) ||
        !check_window(r, v, "migrating_ms", sub))
      return 0;
  }
  if ((v = json_object_get(s, "stacks"))) {
    size_t k;
    const json_t *st;
    json_array_foreach(v, k, st) {
      snprintf(sub, sizeof sub, "%s.stacks[%zu]", where, k);
      if (!check_fields(r, st, sub, stack_fields, N(stack_fields)))
        return 0;
      char frames[128];
      snprintf(frames, sizeof frames, "%s.frames", sub);
      if (!check_elements(r, json_object_get(st, "frames"), frames, F_STR))
        return 0;
    }
  }
  return 1;
}

/* An out-of-memory event. Version 1 carried the runtime's verdict; version 2 carries only the
 * figures gmemlint judges it from, held memory the one version 1 files may lack. */
static int check_oom(reader *r, const json_t *e, const char *where, json_int_t version) {
  if (!check_fields(r, e, where, oom_fields, N(oom_fields)))
    return 0;
  const json_t *verdict = json_object_get(e, "verdict");
  if (version == 1 && !verdict)
    return bad(r, "%s: missing \"verdict\"", where);
  if (version >= 2 && !json_object_get(e, "held_unused_bytes"))
    return bad(r, "%s: missing \"held_unused_bytes\" (its verdict is judged from it)", where);
  if (verdict && gm_oom_verdict_parse(json_string_value(verdict)) < 0)
    return bad(r,
               "%s.verdict: expected \"fragmentation\", \"capacity\", \"transient\" or "
               "\"unknown\", found \"%s\"",
               where, json_string_value(verdict));
  return 1;
}

/* arr[i] is an array whose first elements have these types ("process.timeline[3]"). */
static int check_tuple(reader *r, const json_t *v, const char *where, size_t i,
                       const enum ftype *types, size_t n) {
  if (!json_is_array(v) || json_array_size(v) < n)
    return bad(r, "%s[%zu]: expected an array of %zu numbers, found %s", where, i, n,
               json_is_array(v) ? "a shorter array" : type_name(v));
  char value[32];
  for (size_t k = 0; k < n; k++)
    if (!type_ok(json_array_get(v, k), types[k]))
      return bad(r, "%s[%zu][%zu]: expected %s, found %s", where, i, k, expected(types[k]),
                 found(json_array_get(v, k), types[k], value, sizeof value));
  return 1;
}

/* An address-space view: its blocks are [offset, bytes, site index] with the index into this
 * file's sites, or -1. */
static int check_space(reader *r, const json_t *o, const char *where, size_t nsites) {
  if (!check_fields(r, o, where, space_fields, N(space_fields)))
    return 0;
  const char *base = json_string_value(json_object_get(o, "base"));
  char *end = NULL;
  if (strncmp(base, "0x", 2) != 0 || (strtoull(base + 2, &end, 16), *end) || end == base + 2)
    return bad(r, "%s.base: expected a hexadecimal address (0x...), found \"%s\"", where, base);
  char sub[96];
  snprintf(sub, sizeof sub, "%s.blocks", where);
  static const enum ftype block[] = {F_UINT, F_UINT, F_INT};
  size_t i;
  const json_t *b;
  json_array_foreach(json_object_get(o, "blocks"), i, b) {
    if (!check_tuple(r, b, sub, i, block, N(block)))
      return 0;
    json_int_t site = json_integer_value(json_array_get(b, 2));
    if (site < -1 || (site >= 0 && (size_t)site >= nsites))
      return bad(r, "%s[%zu][2]: site index %lld is not in sites (%zu sites)", sub, i,
                 (long long)site, nsites);
  }
  return 1;
}

static int check_document(reader *r, const json_t *root) {
  if (!json_is_object(root))
    return bad(r, "not a telemetry file: expected a JSON object, found %s", type_name(root));
  const json_t *tool = json_object_get(root, "tool");
  if (json_is_string(tool) && strcmp(json_string_value(tool), "gmemrt") != 0)
    return bad(r,
               "not a telemetry file: its tool is \"%s\", not \"gmemrt\" (gmemlint's own "
               "findings, *.gmemlint.json, are given as inputs, not with --telemetry)",
               json_string_value(tool));
  const json_t *version = json_object_get(root, "version");
  if (!version)
    return bad(r, "missing \"version\": not a gmemrt telemetry file?");
  if (!json_is_integer(version))
    return bad(r, "version: expected an integer, found %s", type_name(version));
  json_int_t format_version = json_integer_value(version);
  if (format_version < GM_TELEMETRY_OLDEST_VERSION || format_version > GM_TELEMETRY_VERSION)
    return bad(r,
               "telemetry version %lld is not supported (this gmemlint reads versions %d to %d); "
               "use the gmemlint that matches the runtime",
               (long long)format_version, GM_TELEMETRY_OLDEST_VERSION, GM_TELEMETRY_VERSION);
  if (!check_fields(r, root, "telemetry", top_fields, N(top_fields)))
    return 0;
  const json_t *proc = json_object_get(root, "process");
  if (!check_fields(r, proc, "process", process_fields, N(process_fields)))
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
      if (!check_fields(r, e, where, pool_fields, N(pool_fields)))
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
  static const enum ftype point[] = {F_MS, F_UINT};
  if ((v = json_object_get(proc, "timeline")))
    json_array_foreach(v, i, e) {
      if (!check_tuple(r, e, "process.timeline", i, point, N(point)))
        return 0;
    }
  if ((v = json_object_get(proc, "devices")))
    json_array_foreach(v, i, e) {
      snprintf(where, sizeof where, "process.devices[%zu]", i);
      if (!check_fields(r, e, where, device_fields, N(device_fields)))
        return 0;
    }
  if ((v = json_object_get(root, "nvml"))) {
    if (!check_fields(r, v, "nvml", nvml_fields, N(nvml_fields)))
      return 0;
    /* t_ms, device, used_bytes, total_bytes, sm_util_percent, mem_util_percent */
    static const enum ftype row[] = {F_MS, F_I32, F_UINT, F_UINT, F_U32, F_U32};
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
      !check_fields(r, v, "unified_memory", um_top_fields, N(um_top_fields)))
    return 0;
  return 1;
}

int gm_telemetry_load(gm_telemetry *t, const char *path, char *err, size_t errlen) {
  reader r = {path, err, errlen};
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
    return bad(&r, "cannot read: %s", strerror(errno));
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
    return bad(&r, "a PyTorch snapshot, not a telemetry file: give its companion (T.torch.json, "
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
