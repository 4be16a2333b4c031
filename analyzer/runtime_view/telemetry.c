#include "runtime_view/telemetry.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the schema: what each object may hold, and what it must ---- */

enum ftype { F_UINT, F_INT, F_NUM, F_STR, F_BOOL, F_ARR, F_OBJ, F_UINT_OR_NULL, F_STR_OR_NULL };

typedef struct field {
  const char *name;
  enum ftype type;
  int required;
} field;

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const field top_fields[] = {
    {"version", F_UINT, 1}, {"tool", F_STR, 0},    {"pid", F_INT, 0},
    {"program", F_STR, 0},  {"reason", F_STR, 0},  {"duration_ms", F_NUM, 0},
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
    {"line", F_UINT, 1},
    {"column", F_UINT, 0},
    {"api", F_STR, 1},
    {"module", F_STR_OR_NULL, 0},
    {"module_offset", F_STR, 0},
    {"function", F_STR_OR_NULL, 0},
    {"debug_info", F_BOOL, 0},
    {"kind", F_STR, 1},
    {"family", F_STR, 0},
    {"device", F_INT, 0},
    {"calls", F_UINT, 0}, /* required on alloc sites: see check_site */
    {"failed_calls", F_UINT, 0},
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
    {"prefetches", F_UINT, 0},
    {"step_live_bytes", F_ARR, 0},
    {"unified_memory", F_OBJ, 0},
    {"stacks", F_ARR, 0},
};
static const field um_fields[] = {
    {"gpu_page_faults", F_UINT, 0},     {"cpu_page_faults", F_UINT, 0},
    {"htod_bytes", F_UINT, 0},          {"dtoh_bytes", F_UINT, 0},
    {"thrashing", F_UINT, 0},           {"htod_on_demand_bytes", F_UINT, 0},
    {"htod_prefetch_bytes", F_UINT, 0},
};
static const field um_top_fields[] = {
    {"available", F_BOOL, 1}, {"reason", F_STR, 0}, {"unattributed", F_OBJ, 0}};
static const field oom_fields[] = {
    {"file", F_STR, 0},
    {"line", F_UINT, 0},
    {"column", F_UINT, 0},
    {"api", F_STR, 0},
    {"requested_bytes", F_UINT, 1},
    {"free_bytes", F_UINT, 1},
    {"total_bytes", F_UINT, 1},
    {"largest_block_bytes", F_UINT_OR_NULL, 0},
    {"live_bytes", F_UINT, 0},
    {"verdict", F_STR, 1},
    {"time_ms", F_NUM, 0},
    {"live_device_bytes", F_UINT, 0},
    {"held_unused_bytes", F_UINT, 0},
    {"pool_reserved_bytes", F_UINT, 0},
    {"pool_used_bytes", F_UINT, 0},
    {"address_space", F_OBJ, 0},
    {"device", F_INT, 0},
};
static const field pool_fields[] = {
    {"pool", F_STR, 0},
    {"device", F_INT, 0},
    {"sampled", F_BOOL, 0},
    {"reserved_bytes", F_UINT, 1},
    {"used_bytes", F_UINT, 1},
    {"reserved_high_bytes", F_UINT, 0},
    {"used_high_bytes", F_UINT, 0},
};
static const field stack_fields[] = {{"count", F_UINT, 1}, {"frames", F_ARR, 1}};
static const field space_fields[] = {
    {"time_ms", F_NUM, 0},     {"live_bytes", F_UINT, 0},        {"base", F_STR, 1},
    {"span_bytes", F_UINT, 0}, {"block_bytes", F_UINT, 0},       {"gaps", F_UINT, 0},
    {"gap_bytes", F_UINT, 0},  {"largest_gap_bytes", F_UINT, 0}, {"blocks_left_out", F_UINT, 0},
    {"blocks", F_ARR, 1},
};
static const field nvml_fields[] = {
    {"available", F_BOOL, 1}, {"reason", F_STR, 0}, {"columns", F_ARR, 0}, {"samples", F_ARR, 0}};
static const field device_fields[] = {
    {"device", F_INT, 1},           {"allocations", F_UINT, 0},
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
                                      [F_STR_OR_NULL] = "a string or null"};
  return names[t];
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
    if (!type_ok(v, fields[i].type))
      return bad(r, "%s.%s: expected %s, found %s", where, fields[i].name, expected(fields[i].type),
                 type_name(v));
  }
  return 1;
}

static int check_elements(reader *r, const json_t *arr, const char *where, enum ftype t) {
  size_t i;
  const json_t *v;
  json_array_foreach(arr, i, v) {
    if (!type_ok(v, t))
      return bad(r, "%s[%zu]: expected %s, found %s", where, i, expected(t), type_name(v));
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
  if ((v = json_object_get(s, "frees"))) {
    const char *key;
    const json_t *n;
    json_object_foreach((json_t *)v, key, n) {
      if (!type_ok(n, F_UINT))
        return bad(r, "%s.frees.%s: expected a non-negative integer, found %s", where, key,
                   type_name(n));
    }
  }
  if ((v = json_object_get(s, "unified_memory"))) {
    snprintf(sub, sizeof sub, "%s.unified_memory", where);
    if (!check_fields(r, v, sub, um_fields, N(um_fields)))
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

/* arr[i] is an array whose first elements have these types ("process.timeline[3]"). */
static int check_tuple(reader *r, const json_t *v, const char *where, size_t i,
                       const enum ftype *types, size_t n) {
  if (!json_is_array(v) || json_array_size(v) < n)
    return bad(r, "%s[%zu]: expected an array of %zu numbers, found %s", where, i, n,
               json_is_array(v) ? "a shorter array" : type_name(v));
  for (size_t k = 0; k < n; k++)
    if (!type_ok(json_array_get(v, k), types[k]))
      return bad(r, "%s[%zu][%zu]: expected %s, found %s", where, i, k, expected(types[k]),
                 type_name(json_array_get(v, k)));
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
  if (json_integer_value(version) != GM_TELEMETRY_VERSION)
    return bad(r,
               "telemetry version %lld is not supported (this gmemlint reads version %d); use "
               "the gmemlint that matches the runtime",
               (long long)json_integer_value(version), GM_TELEMETRY_VERSION);
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
      if (!check_fields(r, e, where, oom_fields, N(oom_fields)))
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
  static const enum ftype point[] = {F_NUM, F_UINT};
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
    static const enum ftype row[] = {F_NUM, F_INT, F_UINT, F_UINT, F_UINT, F_UINT};
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

static gm_tsite *site_for(gm_telemetry *t, const char *file, unsigned line, const char *api) {
  if (t->sites.len * 2 + 16 > t->index_cap)
    index_rebuild(t);
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
  GM_PUSH(t->sites, fresh);
  t->index[k] = t->sites.len;
  return &t->sites.items[t->sites.len - 1];
}

static void add_named(gm_tsite *s, const char *name, uint64_t n) {
  for (size_t i = 0; i < s->frees.len; i++)
    if (strcmp(s->frees.items[i].name, name) == 0) {
      s->frees.items[i].n += n;
      return;
    }
  gm_named_count c = {gm_xstrdup(name), n};
  GM_PUSH(s->frees, c);
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

static void add_um(gm_um_counts *c, const json_t *o) {
  c->gpu_page_faults += u(o, "gpu_page_faults");
  c->cpu_page_faults += u(o, "cpu_page_faults");
  c->htod_bytes += u(o, "htod_bytes");
  c->dtoh_bytes += u(o, "dtoh_bytes");
  c->thrashing += u(o, "thrashing");
  c->htod_on_demand_bytes += u(o, "htod_on_demand_bytes");
  c->htod_prefetch_bytes += u(o, "htod_prefetch_bytes");
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
  gm_tsite *s = site_for(t, file, (unsigned)u(o, "line"), s_or(o, "api", ""));
  if (where) {
    s->no_source = 1;
    if (!s->function && json_string_value(json_object_get(o, "function")))
      s->function = gm_xstrdup(json_string_value(json_object_get(o, "function")));
  }
  free(where);
  int first = s->nfiles++ == 0;
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
  json_object_foreach(json_object_get(o, "frees"), key, n) add_named(s, key, u_of(n));
  s->wrong_family_frees += u(o, "wrong_family_frees");
  s->double_frees += u(o, "double_frees");
  s->alloc_ns += u(o, "alloc_ns");
  s->alloc_timed_calls += u(o, "alloc_timed_calls");
  s->free_calls += u(o, "free_calls");
  s->free_ns += u(o, "free_ns");
  s->copies += u(o, "copies");
  s->copy_bytes += u(o, "copy_bytes");
  s->copy_ns += u(o, "copy_ns");
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

static void merge(gm_telemetry *t, const json_t *root, const char *path, const char *real) {
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
    o.verdict = gm_xstrdup(s_or(e, "verdict", "unknown"));
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
    p.source = r->path;
    p.pid = r->pid;
    GM_PUSH(t->pools, p);
  }
  const json_t *peak = json_object_get(proc, "address_space_at_peak");
  if (peak)
    t->runs.items[run_index].peak_space = read_space(peak, map);
  free(map);
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
  int ok = check_document(&r, root);
  if (ok)
    merge(t, root, path, resolved);
  json_decref(root);
  return ok;
}

void gm_telemetry_free(gm_telemetry *t) {
  for (size_t i = 0; i < t->sites.len; i++) {
    gm_tsite *s = &t->sites.items[i];
    free(s->file);
    free(s->real);
    free(s->api);
    free(s->family);
    free(s->function);
    GM_VEC_FREE(s->sizes);
    for (size_t k = 0; k < s->frees.len; k++)
      free(s->frees.items[k].name);
    GM_VEC_FREE(s->frees);
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
    free(t->ooms.items[i].verdict);
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
    free(r->nvml_reason);
    GM_VEC_FREE(r->timeline);
    GM_VEC_FREE(r->devices);
    GM_VEC_FREE(r->nvml);
    space_free(r->peak_space);
  }
  GM_VEC_FREE(t->sites);
  GM_VEC_FREE(t->ooms);
  GM_VEC_FREE(t->pools);
  GM_VEC_FREE(t->runs);
  free(t->index);
  t->index = NULL;
  t->index_cap = 0;
}

/* ---- matching a source location to a site ---- */

/* The path's components from the end: returns how many trailing components a and b share. */
static int common_tail(const char *a, const char *b) {
  const char *ea = a + strlen(a), *eb = b + strlen(b);
  int n = 0;
  for (;;) {
    /* skip separators and "." components */
    for (;;) {
      while (ea > a && ea[-1] == '/')
        ea--;
      while (eb > b && eb[-1] == '/')
        eb--;
      if (ea - a >= 1 && ea[-1] == '.' && (ea - a == 1 || ea[-2] == '/')) {
        ea--;
        continue;
      }
      if (eb - b >= 1 && eb[-1] == '.' && (eb - b == 1 || eb[-2] == '/')) {
        eb--;
        continue;
      }
      break;
    }
    if (ea == a || eb == b)
      return n;
    const char *sa = ea, *sb = eb;
    while (sa > a && sa[-1] != '/')
      sa--;
    while (sb > b && sb[-1] != '/')
      sb--;
    if (ea - sa != eb - sb || memcmp(sa, sb, (size_t)(ea - sa)) != 0 ||
        (ea - sa == 2 && sa[0] == '.' && sa[1] == '.'))
      return n;
    n++;
    ea = sa;
    eb = sb;
  }
}

int gm_path_match(const char *path, const char *path_real, const char *site_file,
                  const char *site_real, int site_absolute) {
  if (path_real && site_real) {
    if (strcmp(path_real, site_real) == 0)
      return 1000;
    /* an absolute path that resolves here names this machine's file: a different one */
    if (site_absolute)
      return 0;
  }
  return common_tail(path, site_file);
}

const gm_tsite *gm_telemetry_find(const gm_telemetry *t, const char *file, unsigned line,
                                  unsigned column, enum gm_site_kind kind) {
  if (!file)
    return NULL;
  char real[PATH_MAX];
  const char *resolved = NULL;
  int resolved_yet = 0;
  const gm_tsite *best = NULL;
  int best_score = 0;
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (s->line != line || s->kind != kind || s->no_source)
      continue;
    if (!resolved_yet) {
      resolved = realpath(file, real);
      resolved_yet = 1;
    }
    int score = 2 * gm_path_match(file, resolved, s->file, s->real, s->file_absolute);
    /* The column only breaks ties between calls on one line: clang's __builtin_COLUMN() in the
     * forced-include macros gives the end of the outermost macro expansion, not the call's
     * column that libclang reports, so a column mismatch must not rule a site out. */
    if (score && column && s->column == column)
      score++;
    if (score > best_score) {
      best = s;
      best_score = score;
    }
  }
  return best;
}

int gm_site_ran(const gm_tsite *s) {
  if (!s)
    return 0;
  switch (s->kind) {
  case GM_SITE_ALLOC:
    return s->calls > 0;
  case GM_SITE_FREE:
    return s->free_calls > 0;
  case GM_SITE_OTHER:
    return s->copies > 0 || s->prefetches > 0;
  }
  return 0;
}

uint64_t gm_site_frees_total(const gm_tsite *s) {
  uint64_t n = 0;
  for (size_t i = 0; i < s->frees.len; i++)
    n += s->frees.items[i].n;
  return n;
}

/* ---- stacks ---- */

/* "train+0x55 (app)" -> "train"; NULL for frames of no interest (the runtime's own hooks, the C
 * library's start-up, frames without a symbol). Simple Itanium names (_Z5trainv) are shortened
 * to the function's name. */
static char *frame_name(const char *frame) {
  const char *plus = strstr(frame, "+0x");
  if (!plus || !strstr(plus, " ("))
    return NULL; /* "libc.so.6+0x2724a" or a bare address: no symbol */
  size_t n = (size_t)(plus - frame);
  const char *paren = memchr(frame, '(', n); /* "train(int)": the name without its parameters */
  if (paren && paren > frame)
    n = (size_t)(paren - frame);
  char *name = gm_xmalloc(n + 1);
  memcpy(name, frame, n);
  name[n] = 0;
  static const char *const skip_prefix[] = {"gmemrt_", "gmem_", "__libc_start"};
  int skip = strcmp(name, "_start") == 0;
  for (size_t i = 0; i < N(skip_prefix) && !skip; i++)
    skip = strncmp(name, skip_prefix[i], strlen(skip_prefix[i])) == 0;
  if (skip) {
    free(name);
    return NULL;
  }
  if (name[0] == '_' && name[1] == 'Z') {
    const char *p = name + 2;
    while (*p == 'N' || *p == 'L') /* nested (keep the last component), internal linkage */
      p++;
    const char *last = NULL;
    size_t last_len = 0;
    while (isdigit((unsigned char)*p)) {
      char *end;
      unsigned long len = strtoul(p, &end, 10);
      if (len == 0 || strlen(end) < len)
        break;
      last = end;
      last_len = len;
      p = end + len;
    }
    if (last) {
      char *plain = gm_xmalloc(last_len + 1);
      memcpy(plain, last, last_len);
      plain[last_len] = 0;
      free(name);
      return plain;
    }
  }
  return name;
}

enum { STACK_SHOWN = 6 }; /* frames shown in evidence, nearest the allocation */

char *gm_site_stack(const gm_tsite *s) {
  const gm_tstack *top = NULL;
  for (size_t i = 0; i < s->stacks.len; i++)
    if (!top || s->stacks.items[i].count > top->count)
      top = &s->stacks.items[i];
  if (!top)
    return NULL;
  gm_str_vec names = {0};
  for (size_t i = 0; i < top->frames.len; i++) {
    char *n = frame_name(top->frames.items[i]);
    if (n)
      GM_PUSH(names, n);
  }
  if (!names.len) {
    GM_VEC_FREE(names);
    return NULL;
  }
  gm_strbuf sb = {0};
  size_t shown = names.len < STACK_SHOWN ? names.len : STACK_SHOWN;
  if (shown < names.len)
    gm_sb_append(&sb, "... > ");
  for (size_t k = shown; k-- > 0;) {
    gm_sb_append(&sb, names.items[k]);
    if (k)
      gm_sb_append(&sb, " > ");
  }
  for (size_t i = 0; i < names.len; i++)
    free(names.items[i]);
  GM_VEC_FREE(names);
  return gm_sb_take(&sb);
}

/* ---- human units ---- */

gm_human gm_bytes(uint64_t b) {
  gm_human h;
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (b < 1024) {
    snprintf(h.s, sizeof h.s, "%llu B", (unsigned long long)b);
    return h;
  }
  double v = (double)b / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < N(units)) {
    v /= 1024;
    u++;
  }
  snprintf(h.s, sizeof h.s, "%.1f %s", v, units[u]);
  return h;
}

gm_human gm_duration_ns(uint64_t ns) {
  gm_human h;
  if (ns < 1000)
    snprintf(h.s, sizeof h.s, "%llu ns", (unsigned long long)ns);
  else if (ns < 1000000)
    snprintf(h.s, sizeof h.s, "%.1f us", (double)ns / 1e3);
  else if (ns < 1000000000)
    snprintf(h.s, sizeof h.s, "%.1f ms", (double)ns / 1e6);
  else
    snprintf(h.s, sizeof h.s, "%.2f s", (double)ns / 1e9);
  return h;
}

gm_human gm_rate(uint64_t bytes, uint64_t ns) {
  gm_human h;
  if (!ns) {
    snprintf(h.s, sizeof h.s, "unknown");
    return h;
  }
  h = gm_bytes((uint64_t)((double)bytes * 1e9 / (double)ns));
  size_t n = strlen(h.s);
  if (n + 3 <= sizeof h.s)
    memcpy(h.s + n, "/s", 3);
  return h;
}
