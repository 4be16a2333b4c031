/* The caching allocator's snapshots (torch.cuda.memory._snapshot() as JSON): segments with
 * their blocks and the trace of allocator events, checked like the companion and kept with
 * only the first user frame of each record. A snapshot of 200k trace entries holds each Python
 * file name once (interned), so the frames cost a pointer and a line per record. */
#include "runtime_view/torch_private.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

uint64_t tv_u(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

int64_t tv_i(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

/* ---- interned names ---- */

struct gm_name_slot {
  size_t index_plus1; /* into gm_torch_view.names; 0: empty */
};

const char *tv_intern(gm_torch_view *v, const char *s) {
  if (!s)
    return NULL;
  if (v->names.len * 2 >= v->name_cap) { /* grow and rehash at half full */
    size_t cap = v->name_cap ? v->name_cap * 2 : 64;
    struct gm_name_slot *slots = gm_xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < v->names.len; i++) {
      size_t h = gm_hash64(v->names.items[i], strlen(v->names.items[i]), 0) & (cap - 1);
      while (slots[h].index_plus1)
        h = (h + 1) & (cap - 1);
      slots[h].index_plus1 = i + 1;
    }
    free(v->name_index);
    v->name_index = slots;
    v->name_cap = cap;
  }
  size_t h = gm_hash64(s, strlen(s), 0) & (v->name_cap - 1);
  for (; v->name_index[h].index_plus1; h = (h + 1) & (v->name_cap - 1)) {
    const char *have = v->names.items[v->name_index[h].index_plus1 - 1];
    if (strcmp(have, s) == 0)
      return have;
  }
  GM_PUSH(v->names, gm_xstrdup(s));
  v->name_index[h].index_plus1 = v->names.len;
  return v->names.items[v->names.len - 1];
}

/* ---- frames ---- */

int gm_pyframe_is_user(const char *f) {
  static const char *const framework[] = {"/torch/", "/site-packages/", "/dist-packages/",
                                          "/lib/python3"};
  if (!f || !*f || f[0] == '<')
    return 0;
  for (size_t i = 0; i < N(framework); i++)
    if (strstr(f, framework[i]))
      return 0;
  const char *base = strrchr(f, '/') ? strrchr(f, '/') + 1 : f;
  return strcmp(base, "gmemlint_torch.py") != 0 && strcmp(base, "sitecustomize.py") != 0;
}

static const schema_field frame_fields[] = {
    {"filename", SCHEMA_STR, 1}, {"line", SCHEMA_INT, 1}, {"name", SCHEMA_STR, 0}};

/* The first user frame of frames (innermost first). */
static int first_user(schema_reader *r, gm_torch_view *v, const json_t *frames, const char *where,
                      gm_pyframe *out) {
  *out = (gm_pyframe){0};
  size_t i;
  const json_t *fr;
  char sub[160];
  json_array_foreach(frames, i, fr) {
    snprintf(sub, sizeof sub, "%s.frames[%zu]", where, i);
    if (!schema_check(r, fr, sub, frame_fields, N(frame_fields)))
      return 0;
    const char *file = json_string_value(json_object_get(fr, "filename"));
    if (!out->file && gm_pyframe_is_user(file)) {
      out->file = tv_intern(v, file);
      int64_t line = tv_i(fr, "line");
      out->line = line > 0 && line <= UINT_MAX ? (unsigned)line : 0;
    }
  }
  return 1;
}

/* ---- the snapshot ---- */

static const schema_field segment_fields[] = {
    {"device", SCHEMA_I32, 1},         {"address", SCHEMA_UINT, 1},
    {"total_size", SCHEMA_UINT, 1},    {"allocated_size", SCHEMA_UINT, 0},
    {"active_size", SCHEMA_UINT, 0},   {"requested_size", SCHEMA_UINT, 0},
    {"stream", SCHEMA_INT, 0},         {"segment_type", SCHEMA_STR, 0},
    {"is_expandable", SCHEMA_BOOL, 0}, {"blocks", SCHEMA_ARR, 1},
    {"frames", SCHEMA_ARR, 0},
};
static const schema_field block_fields[] = {
    {"address", SCHEMA_UINT, 1}, {"size", SCHEMA_UINT, 1},  {"requested_size", SCHEMA_UINT, 0},
    {"state", SCHEMA_STR, 1},    {"frames", SCHEMA_ARR, 0},
};
static const schema_field trace_fields[] = {
    {"action", SCHEMA_STR, 1},       {"addr", SCHEMA_UINT, 0},
    {"size", SCHEMA_UINT, 1},        {"stream", SCHEMA_INT, 0},
    {"time_us", SCHEMA_INT, 0},      {"user_metadata", SCHEMA_STR_OR_NULL, 0},
    {"device_free", SCHEMA_UINT, 0}, {"frames", SCHEMA_ARR, 0},
};

static const struct {
  const char *name;
  enum gm_torch_action action;
} actions[] = {
    {"alloc", GM_TRACE_ALLOC},
    {"free_requested", GM_TRACE_FREE_REQUESTED},
    {"free_completed", GM_TRACE_FREE_COMPLETED},
    {"segment_alloc", GM_TRACE_SEGMENT_ALLOC},
    {"segment_free", GM_TRACE_SEGMENT_FREE},
    {"oom", GM_TRACE_OOM},
};

/* The step of "gmemlint.step=K" in user_metadata (the shim's tag, maybe among others), or -1. */
static long step_tag(const char *meta) {
  const char *p = meta ? strstr(meta, "gmemlint.step=") : NULL;
  if (!p)
    return -1;
  char *end;
  errno = 0;
  long k = strtol(p + strlen("gmemlint.step="), &end, 10);
  return errno || end == p + strlen("gmemlint.step=") || k < 0 ? -1 : k;
}

static int read_segment(schema_reader *r, gm_torch_view *v, gm_torch_snapshot *s, const json_t *o,
                        size_t i) {
  char where[64], sub[96];
  snprintf(where, sizeof where, "segments[%zu]", i);
  if (!schema_check(r, o, where, segment_fields, N(segment_fields)))
    return 0;
  gm_torch_segment seg = {0};
  seg.device = (int)tv_i(o, "device");
  seg.address = tv_u(o, "address");
  seg.total = tv_u(o, "total_size");
  seg.allocated = tv_u(o, "allocated_size");
  seg.active = tv_u(o, "active_size");
  seg.requested = tv_u(o, "requested_size");
  seg.stream = tv_i(o, "stream");
  const char *type = json_string_value(json_object_get(o, "segment_type"));
  seg.large = !type || strcmp(type, "small") != 0; /* "large" unless told */
  seg.expandable = json_is_true(json_object_get(o, "is_expandable"));
  if (!first_user(r, v, json_object_get(o, "frames"), where, &seg.at))
    return 0;
  seg.first_block = s->blocks.len;
  size_t k;
  const json_t *b;
  json_array_foreach(json_object_get(o, "blocks"), k, b) {
    snprintf(sub, sizeof sub, "%s.blocks[%zu]", where, k);
    if (!schema_check(r, b, sub, block_fields, N(block_fields)))
      return 0;
    gm_torch_block blk = {0};
    blk.address = tv_u(b, "address");
    blk.size = tv_u(b, "size");
    blk.requested = tv_u(b, "requested_size");
    const char *state = json_string_value(json_object_get(b, "state"));
    if (strcmp(state, "active_allocated") == 0)
      blk.state = GM_BLOCK_ALLOCATED;
    else if (strcmp(state, "active_pending_free") == 0)
      blk.state = GM_BLOCK_PENDING_FREE;
    else if (strcmp(state, "inactive") == 0)
      blk.state = GM_BLOCK_INACTIVE;
    else
      return schema_bad(r,
                        "%s.state: expected \"active_allocated\", \"active_pending_free\" or "
                        "\"inactive\", found \"%s\"",
                        sub, state);
    if (!first_user(r, v, json_object_get(b, "frames"), sub, &blk.at))
      return 0;
    GM_PUSH(s->blocks, blk);
  }
  seg.nblocks = s->blocks.len - seg.first_block;
  GM_PUSH(s->segments, seg);
  return 1;
}

static int read_trace(schema_reader *r, gm_torch_view *v, gm_torch_snapshot *s, const json_t *o,
                      size_t device, size_t i) {
  char where[64];
  snprintf(where, sizeof where, "device_traces[%zu][%zu]", device, i);
  if (!schema_check(r, o, where, trace_fields, N(trace_fields)))
    return 0;
  gm_torch_trace t = {GM_TRACE_OTHER, (int)device, 0, 0, 0, -1, {0}};
  const char *action = json_string_value(json_object_get(o, "action"));
  for (size_t k = 0; k < N(actions); k++)
    if (strcmp(action, actions[k].name) == 0)
      t.action = actions[k].action;
  t.addr = t.action == GM_TRACE_OOM ? tv_u(o, "device_free") : tv_u(o, "addr");
  t.size = tv_u(o, "size");
  t.time_us = tv_i(o, "time_us");
  t.step = step_tag(json_string_value(json_object_get(o, "user_metadata")));
  if (!first_user(r, v, json_object_get(o, "frames"), where, &t.at))
    return 0;
  GM_PUSH(s->traces, t);
  return 1;
}

/* ---- reading the file a value at a time ----
 *
 * A snapshot of 200k trace entries is hundreds of MB of JSON; as one jansson tree it would take
 * several times that. The trace entries are parsed one at a time instead (jansson's
 * JSON_DISABLE_EOF_CHECK stops after one value and says how many bytes it read), each freed once
 * read, so memory is the file's text and what the view keeps. */

typedef struct scan {
  schema_reader *r;
  const char *text;
  size_t len, pos;
} scan;

static void skip_ws(scan *c) {
  while (c->pos < c->len && (c->text[c->pos] == ' ' || c->text[c->pos] == '\n' ||
                             c->text[c->pos] == '\t' || c->text[c->pos] == '\r'))
    c->pos++;
}

/* "PATH:LINE:COL: invalid JSON: what", at byte offset at. */
static int bad_json(scan *c, size_t at, const char *what) {
  int line = 1, col = 1;
  for (size_t i = 0; i < at && i < c->len; i++, col++)
    if (c->text[i] == '\n')
      line++, col = 0;
  snprintf(c->r->err, c->r->errlen, "%s:%d:%d: invalid JSON: %s", c->r->path, line, col, what);
  return 0;
}

/* The next character, after white space, if it is one of `want` (consumed); else 0. */
static char next_of(scan *c, const char *want) {
  skip_ws(c);
  if (c->pos < c->len && strchr(want, c->text[c->pos]) && c->text[c->pos])
    return c->text[c->pos++];
  return 0;
}

/* The JSON value at the position, or NULL after an error message. */
static json_t *value_here(scan *c) {
  skip_ws(c);
  json_error_t e;
  size_t start = c->pos;
  json_t *v =
      json_loadb(c->text + start, c->len - start, JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &e);
  if (!v) {
    bad_json(c, start + (size_t)(e.position > 0 ? e.position : 0), e.text);
    return NULL;
  }
  c->pos = start + (size_t)e.position;
  /* a number, true, false or null may have read the one character after it */
  if (!json_is_object(v) && !json_is_array(v) && !json_is_string(v))
    while (c->pos > start + 1 && strchr(",]}", c->text[c->pos - 1]))
      c->pos--;
  return v;
}

/* device_traces: an array per device of trace entries, each read and freed in turn. */
static int read_traces(scan *c, gm_torch_view *v, gm_torch_snapshot *s) {
  if (!next_of(c, "[")) {
    json_t *t = value_here(c);
    int ok = t && schema_bad(c->r, "device_traces: expected an array, found %s", schema_kind(t));
    json_decref(t);
    return ok;
  }
  if (next_of(c, "]"))
    return 1;
  for (size_t device = 0;; device++) {
    if (!next_of(c, "[")) {
      json_t *t = value_here(c);
      if (t)
        schema_bad(c->r, "device_traces[%zu]: expected an array, found %s", device, schema_kind(t));
      json_decref(t);
      return 0;
    }
    if (!next_of(c, "]"))
      for (size_t k = 0;; k++) {
        json_t *e = value_here(c);
        int ok = e && read_trace(c->r, v, s, e, device, k);
        json_decref(e);
        if (!ok)
          return 0;
        char sep = next_of(c, ",]");
        if (!sep)
          return bad_json(c, c->pos, "',' or ']' expected in device_traces");
        if (sep == ']')
          break;
      }
    char sep = next_of(c, ",]");
    if (!sep)
      return bad_json(c, c->pos, "',' or ']' expected in device_traces");
    if (sep == ']')
      return 1;
  }
}

static int read_segments(schema_reader *r, gm_torch_view *v, gm_torch_snapshot *s,
                         const json_t *segments) {
  if (!json_is_array(segments))
    return schema_bad(r, "not a PyTorch snapshot: expected an array for \"segments\"");
  size_t i;
  const json_t *e;
  json_array_foreach(segments, i, e) {
    if (!read_segment(r, v, s, e, i))
      return 0;
  }
  return 1;
}

/* The document: an object with "segments" and "device_traces" (and keys not judged), or the
 * segments list alone (memory_snapshot(include_traces=False)). */
static int read_document(scan *c, gm_torch_view *v, gm_torch_snapshot *s) {
  skip_ws(c);
  if (c->pos < c->len && c->text[c->pos] == '[') {
    json_t *segments = value_here(c);
    int ok = segments && read_segments(c->r, v, s, segments);
    json_decref(segments);
    return ok && (skip_ws(c), c->pos == c->len || bad_json(c, c->pos, "end of file expected"));
  }
  if (!next_of(c, "{")) {
    json_t *t = value_here(c);
    int ok = t && schema_bad(c->r, "not a PyTorch snapshot: expected a JSON object, found %s",
                             schema_kind(t));
    json_decref(t);
    return ok;
  }
  int seen_segments = 0;
  if (!next_of(c, "}"))
    for (;;) {
      json_t *key = value_here(c);
      if (!key)
        return 0;
      if (!json_is_string(key)) {
        json_decref(key);
        return bad_json(c, c->pos, "string or '}' expected");
      }
      int traces = strcmp(json_string_value(key), "device_traces") == 0;
      int segments = strcmp(json_string_value(key), "segments") == 0;
      json_decref(key);
      if (!next_of(c, ":"))
        return bad_json(c, c->pos, "':' expected");
      if (traces) {
        if (!read_traces(c, v, s))
          return 0;
      } else {
        json_t *value = value_here(c);
        int ok = value && (!segments || read_segments(c->r, v, s, value));
        json_decref(value);
        if (!ok)
          return 0;
        seen_segments |= segments;
      }
      char sep = next_of(c, ",}");
      if (!sep)
        return bad_json(c, c->pos, "',' or '}' expected");
      if (sep == '}')
        break;
    }
  skip_ws(c);
  if (c->pos != c->len)
    return bad_json(c, c->pos, "end of file expected");
  return seen_segments || schema_bad(c->r, "not a PyTorch snapshot: missing \"segments\"");
}

int tv_snapshot_read(gm_torch_view *v, gm_torch_snapshot *s, char *err, size_t errlen,
                     int *missing) {
  schema_reader r = {s->path, err, errlen};
  *missing = 0;
  size_t len;
  char *text = gm_read_file(s->path, &len);
  if (!text) {
    *missing = errno == ENOENT;
    return schema_bad(&r, "cannot read: %s", strerror(errno));
  }
  scan c = {&r, text, len, 0};
  int ok = read_document(&c, v, s);
  free(text);
  s->loaded = ok;
  return ok;
}

void tv_snapshot_free(gm_torch_snapshot *s) {
  if (!s)
    return;
  free(s->file);
  free(s->path);
  GM_VEC_FREE(s->segments);
  GM_VEC_FREE(s->blocks);
  GM_VEC_FREE(s->traces);
  free(s);
}
