/* Reading the PyTorch view's companion file (docs/telemetry-format.md, "The PyTorch view"):
 * checked strictly, every field by type, naming the file and field of anything wrong; the
 * snapshot files it names are read relative to its directory (torch_snapshot.c). */
#include "runtime_view/torch_private.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const schema_field top_fields[] = {
    {"format", SCHEMA_STR, 1},
    {"version", SCHEMA_INT, 1},
    {"pid", SCHEMA_INT, 1},
    {"argv", SCHEMA_ARR, 0},
    {"rank", SCHEMA_INT_OR_NULL, 0},
    {"world_size", SCHEMA_INT_OR_NULL, 0},
    {"torch_version", SCHEMA_STR_OR_NULL, 0},
    {"telemetry", SCHEMA_STR_OR_NULL, 0},
    {"allocator", SCHEMA_OBJ, 1},
    {"devices", SCHEMA_ARR, 0},
    {"history", SCHEMA_OBJ, 1},
    {"steps", SCHEMA_ARR, 1},
    {"ooms", SCHEMA_ARR, 0},
    {"snapshots", SCHEMA_ARR, 0},
    {"errors", SCHEMA_ARR, 0},
};
static const schema_field allocator_fields[] = {
    {"backend", SCHEMA_STR, 1},
    {"caching", SCHEMA_BOOL, 1},
    {"expandable_segments", SCHEMA_BOOL, 1},
    {"settings", SCHEMA_STR_OR_NULL, 0},
};
static const schema_field device_fields[] = {
    {"index", SCHEMA_I32, 1}, {"name", SCHEMA_STR_OR_NULL, 0}, {"total_bytes", SCHEMA_UINT, 1}};
static const schema_field history_fields[] = {
    {"recorded", SCHEMA_BOOL, 1},        {"reason", SCHEMA_STR_OR_NULL, 0},
    {"stacks", SCHEMA_STR_OR_NULL, 0},   {"max_entries", SCHEMA_UINT_OR_NULL, 0},
    {"entries", SCHEMA_UINT_OR_NULL, 0}, {"overflowed", SCHEMA_BOOL, 0},
};
static const schema_field step_fields[] = {
    {"step", SCHEMA_UINT, 1},
    {"source", SCHEMA_STR, 0},
    {"time_us", SCHEMA_INT, 1},
    {"device", SCHEMA_I32, 0},
    {"allocated_bytes", SCHEMA_UINT_OR_NULL, 1},
    {"reserved_bytes", SCHEMA_UINT_OR_NULL, 1},
    {"active_bytes", SCHEMA_UINT, 0},
    {"requested_bytes", SCHEMA_UINT, 0},
    {"inactive_split_bytes", SCHEMA_UINT, 0},
    {"num_alloc_retries", SCHEMA_UINT, 0},
    {"num_ooms", SCHEMA_UINT, 0},
    {"largest_free_block_bytes", SCHEMA_UINT_OR_NULL, 0},
};
static const schema_field oom_fields[] = {
    {"time_us", SCHEMA_INT, 0},
    {"device", SCHEMA_I32, 1},
    {"request_bytes", SCHEMA_UINT, 1},
    {"device_limit_bytes", SCHEMA_UINT, 1},
    {"device_free_bytes", SCHEMA_UINT, 1},
    {"allocated_bytes", SCHEMA_UINT, 0},
    {"reserved_bytes", SCHEMA_UINT, 0},
    {"snapshot", SCHEMA_STR_OR_NULL, 0},
    {"pickle", SCHEMA_STR_OR_NULL, 0},
    {"snapshot_error", SCHEMA_STR_OR_NULL, 0},
};
static const schema_field snapshot_fields[] = {
    {"reason", SCHEMA_STR, 1},        {"file", SCHEMA_STR, 1},    {"pickle", SCHEMA_STR_OR_NULL, 0},
    {"step", SCHEMA_UINT_OR_NULL, 0}, {"traces", SCHEMA_BOOL, 0},
};

int gm_torch_is_companion(const json_t *root) {
  const json_t *format = json_object_get(root, "format");
  return json_is_string(format) && strcmp(json_string_value(format), "gmemlint-torch") == 0;
}

char *gm_torch_companion_of(const char *telemetry_path) {
  size_t n = strlen(telemetry_path);
  if (n > 5 && strcmp(telemetry_path + n - 5, ".json") == 0)
    n -= 5;
  return gm_xasprintf("%.*s.torch.json", (int)n, telemetry_path);
}

/* Checks each element of the array at key against fields ("steps[2]"). */
static int check_each(schema_reader *r, const json_t *root, const char *key,
                      const schema_field *fields, size_t n) {
  size_t i;
  const json_t *e;
  char where[64];
  json_array_foreach(json_object_get(root, key), i, e) {
    snprintf(where, sizeof where, "%s[%zu]", key, i);
    if (!schema_check(r, e, where, fields, n))
      return 0;
  }
  return 1;
}

static int check_companion(schema_reader *r, const json_t *root) {
  const json_t *version = json_object_get(root, "version");
  if (!json_is_integer(version))
    return schema_bad(r, "version: expected an integer, found %s",
                      version ? "something else" : "nothing (missing \"version\")");
  if (json_integer_value(version) != GM_TORCH_VERSION)
    return schema_bad(
        r,
        "PyTorch view version %lld is not supported (this gmemlint reads version %d); "
        "use the gmemlint that matches the shim",
        (long long)json_integer_value(version), GM_TORCH_VERSION);
  if (!schema_check(r, root, "torch", top_fields, N(top_fields)) ||
      !schema_check(r, json_object_get(root, "allocator"), "allocator", allocator_fields,
                    N(allocator_fields)) ||
      !schema_check(r, json_object_get(root, "history"), "history", history_fields,
                    N(history_fields)) ||
      !check_each(r, root, "devices", device_fields, N(device_fields)) ||
      !check_each(r, root, "steps", step_fields, N(step_fields)) ||
      !check_each(r, root, "ooms", oom_fields, N(oom_fields)) ||
      !check_each(r, root, "snapshots", snapshot_fields, N(snapshot_fields)))
    return 0;
  const char *backend =
      json_string_value(json_object_get(json_object_get(root, "allocator"), "backend"));
  if (strcmp(backend, "native") && strcmp(backend, "cudaMallocAsync"))
    return schema_bad(
        r, "allocator.backend: expected \"native\" or \"cudaMallocAsync\", found \"%s\"", backend);
  size_t i;
  const json_t *e;
  json_array_foreach(json_object_get(root, "snapshots"), i, e) {
    const char *reason = json_string_value(json_object_get(e, "reason"));
    if (strcmp(reason, "peak") && strcmp(reason, "exit"))
      return schema_bad(r, "snapshots[%zu].reason: expected \"peak\" or \"exit\", found \"%s\"", i,
                        reason);
  }
  return 1;
}

static char *str_or_null(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? gm_xstrdup(s) : NULL;
}

/* A snapshot the companion names, read from dir; a missing file is a warning, a bad one an
 * error. Returns NULL (and 0 in *ok) only on a bad file. */
static gm_torch_snapshot *snapshot_at(gm_torch_view *v, const char *dir, const char *file,
                                      char *err, size_t errlen, int *ok) {
  gm_torch_snapshot *s = gm_xcalloc(1, sizeof *s);
  s->file = gm_xstrdup(file);
  s->path = file[0] == '/' || !*dir ? gm_xstrdup(file) : gm_xasprintf("%s/%s", dir, file);
  int missing;
  if (!tv_snapshot_read(v, s, err, errlen, &missing)) {
    if (!missing) {
      *ok = 0;
      tv_snapshot_free(s);
      return NULL;
    }
    fprintf(stderr,
            GM_PROGRAM ": warning: %s: the snapshot %s it names is missing; the PyTorch view of "
                       "pid %ld is partial\n",
            v->path, s->path, v->pid);
    GM_VEC_FREE(s->segments);
    GM_VEC_FREE(s->blocks);
    GM_VEC_FREE(s->traces);
  }
  return s;
}

static void read_view(gm_torch_view *v, const json_t *root) {
  v->pid = (long)tv_i(root, "pid");
  v->has_rank = json_is_integer(json_object_get(root, "rank"));
  v->rank = (long)tv_i(root, "rank");
  const char *arg0 = json_string_value(json_array_get(json_object_get(root, "argv"), 0));
  v->program = gm_xstrdup(arg0 ? arg0 : "");
  const json_t *a = json_object_get(root, "allocator");
  v->backend = str_or_null(a, "backend");
  v->caching = json_is_true(json_object_get(a, "caching"));
  v->expandable = json_is_true(json_object_get(a, "expandable_segments"));
  v->settings = str_or_null(a, "settings");
  const json_t *h = json_object_get(root, "history");
  v->history_recorded = json_is_true(json_object_get(h, "recorded"));
  v->history_overflowed = json_is_true(json_object_get(h, "overflowed"));
  v->history_reason = str_or_null(h, "reason");
  v->history_entries = tv_u(h, "entries");
  v->history_max_entries = tv_u(h, "max_entries");
  size_t i;
  const json_t *e;
  json_array_foreach(json_object_get(root, "devices"), i, e) {
    gm_torch_device d = {(int)tv_i(e, "index"), str_or_null(e, "name"), tv_u(e, "total_bytes")};
    GM_PUSH(v->devices, d);
  }
  json_array_foreach(json_object_get(root, "steps"), i, e) {
    gm_torch_step s = {0};
    s.step = (long)tv_u(e, "step");
    s.time_us = tv_i(e, "time_us");
    s.device = (int)tv_i(e, "device");
    s.allocated = tv_u(e, "allocated_bytes");
    s.reserved = tv_u(e, "reserved_bytes");
    s.active = tv_u(e, "active_bytes");
    s.requested = tv_u(e, "requested_bytes");
    s.inactive_split = tv_u(e, "inactive_split_bytes");
    s.alloc_retries = tv_u(e, "num_alloc_retries");
    s.ooms = tv_u(e, "num_ooms");
    GM_PUSH(v->steps, s);
  }
}

/* The snapshots: the OOMs' and the peak and exit ones. Returns 0 on a bad snapshot file. */
static int read_snapshots(gm_torch_view *v, const json_t *root, char *err, size_t errlen) {
  char *slash = strrchr(v->path, '/');
  char *dir = slash ? gm_xasprintf("%.*s", (int)(slash - v->path), v->path) : gm_xstrdup("");
  if (slash == v->path) {
    free(dir);
    dir = gm_xstrdup("/");
  }
  int ok = 1;
  size_t i;
  const json_t *e;
  json_array_foreach(json_object_get(root, "ooms"), i, e) {
    gm_torch_oom o = {0};
    o.time_us = tv_i(e, "time_us");
    o.device = (int)tv_i(e, "device");
    o.request = tv_u(e, "request_bytes");
    o.limit = tv_u(e, "device_limit_bytes");
    o.device_free = tv_u(e, "device_free_bytes");
    o.allocated = tv_u(e, "allocated_bytes");
    o.reserved = tv_u(e, "reserved_bytes");
    o.snapshot_error = str_or_null(e, "snapshot_error");
    const char *file = json_string_value(json_object_get(e, "snapshot"));
    if (ok && file)
      o.snapshot = snapshot_at(v, dir, file, err, errlen, &ok);
    GM_PUSH(v->ooms, o);
  }
  json_array_foreach(json_object_get(root, "snapshots"), i, e) {
    const char *reason = json_string_value(json_object_get(e, "reason"));
    gm_torch_snapshot **slot = strcmp(reason, "peak") == 0 ? &v->peak : &v->exit;
    if (!ok || *slot) /* the first of each reason */
      continue;
    *slot = snapshot_at(v, dir, json_string_value(json_object_get(e, "file")), err, errlen, &ok);
  }
  free(dir);
  return ok;
}

int gm_torch_load(gm_telemetry *t, const char *path, char *err, size_t errlen) {
  schema_reader r = {path, err, errlen};
  char real[PATH_MAX];
  const char *resolved = realpath(path, real);
  for (size_t i = 0; resolved && i < t->torch.len; i++)
    if (t->torch.items[i]->real && strcmp(t->torch.items[i]->real, resolved) == 0)
      return 1;
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
  if (!json_is_object(root) || !gm_torch_is_companion(root)) {
    json_decref(root);
    return schema_bad(&r, "not a PyTorch view: its \"format\" is not \"gmemlint-torch\"");
  }
  int ok = check_companion(&r, root);
  gm_torch_view *v = NULL;
  if (ok) {
    v = gm_xcalloc(1, sizeof *v);
    v->path = gm_xstrdup(path);
    v->real = resolved ? gm_xstrdup(resolved) : NULL;
    read_view(v, root);
    ok = read_snapshots(v, root, err, errlen);
  }
  json_decref(root);
  if (!ok) {
    gm_torch_view_free(v);
    return 0;
  }
  GM_PUSH(t->torch, v);
  return 1;
}

void gm_torch_view_free(gm_torch_view *v) {
  if (!v)
    return;
  free(v->path);
  free(v->real);
  free(v->program);
  free(v->backend);
  free(v->settings);
  free(v->history_reason);
  for (size_t i = 0; i < v->devices.len; i++)
    free(v->devices.items[i].name);
  GM_VEC_FREE(v->devices);
  GM_VEC_FREE(v->steps);
  for (size_t i = 0; i < v->ooms.len; i++) {
    tv_snapshot_free(v->ooms.items[i].snapshot);
    free(v->ooms.items[i].snapshot_error);
  }
  GM_VEC_FREE(v->ooms);
  tv_snapshot_free(v->peak);
  tv_snapshot_free(v->exit);
  for (size_t i = 0; i < v->names.len; i++)
    free(v->names.items[i]);
  GM_VEC_FREE(v->names);
  free(v->name_index);
  free(v);
}

const gm_torch_view *gm_torch_view_of_run(const gm_telemetry *t, size_t run) {
  if (run >= t->runs.len)
    return NULL;
  for (size_t i = 0; i < t->torch.len; i++)
    if (t->torch.items[i]->pid == t->runs.items[run].pid)
      return t->torch.items[i];
  return NULL;
}

/* The framework's own libraries and the CUDA libraries its wheels ship (cuBLAS, cuDNN, NCCL),
 * not any package installed beside it: a user's own CUDA extension is still judged. */
static int in_framework(const char *module) {
  static const char *const dirs[] = {"/site-packages/torch/", "/dist-packages/torch/",
                                     "/site-packages/nvidia/", "/dist-packages/nvidia/"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    if (strstr(module, dirs[i]))
      return 1;
  return 0;
}

static int is_caching_allocator(const char *module) {
  const char *base = strrchr(module, '/') ? strrchr(module, '/') + 1 : module;
  return strncmp(base, "libc10_cuda", strlen("libc10_cuda")) == 0;
}

/* A Python run under gmemrun without the shim (its telemetry's torch_view off): no view to
 * place the framework's memory, and the note that says so (join.c) asks for one. */
static int view_off(const gm_telemetry *t, size_t run) {
  return run < t->runs.len && gm_trun_torch_view_off(&t->runs.items[run]);
}

/* The caching allocator's own module is left to gm_torch_caches_site: with caching off, its
 * sites are the program's tensors. */
int gm_torch_framework_site(const gm_telemetry *t, const gm_tsite *s) {
  const char *module = s->module ? s->module : s->no_source ? s->file : NULL;
  return module && in_framework(module) && !is_caching_allocator(module) &&
         (gm_torch_view_of_run(t, s->first_run) != NULL || view_off(t, s->first_run));
}

int gm_torch_judges_oom(const gm_telemetry *t, const gm_toom *e) {
  const gm_torch_view *v = gm_torch_view_of_run(t, e->run);
  return v && v->caching && v->ooms.len > 0;
}

int gm_torch_caches_site(const gm_telemetry *t, const gm_tsite *s) {
  const char *module = s->module ? s->module : s->no_source ? s->file : NULL;
  if (!module)
    return 0;
  if (!is_caching_allocator(module))
    return 0;
  const gm_torch_view *v = gm_torch_view_of_run(t, s->first_run);
  /* without the shim whether it caches is not known; it does unless told otherwise, and its
   * segments are no leak then */
  return v ? v->caching : view_off(t, s->first_run);
}
