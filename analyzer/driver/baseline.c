#include "driver/baseline.h"

#include "findings/rule.h"
#include "support/atomic_file.h"
#include "support/util.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gm_baseline {
  GM_VEC(char *) keys;
};

static const char *normal_path(const char *p) {
  while (p[0] == '.' && p[1] == '/')
    p += 2;
  return p;
}

static char *key_of(const char *rule, const char *file, const char *fp) {
  return gm_xasprintf("%s|%s|%s", rule, normal_path(file), fp);
}

gm_baseline *gm_baseline_load(const char *path, char *err, size_t errlen) {
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) {
    if (jerr.line < 0)
      snprintf(err, errlen, "%s: %s", path, jerr.text);
    else
      snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column, jerr.text);
    return NULL;
  }
  json_t *list = json_object_get(root, "findings");
  if (!json_is_object(root) || json_integer_value(json_object_get(root, "version")) != 1 ||
      !json_is_array(list)) {
    snprintf(err, errlen,
             "%s: not a gmemlint baseline (expected {\"version\": 1, \"findings\": [...]})", path);
    json_decref(root);
    return NULL;
  }
  gm_baseline *b = gm_xcalloc(1, sizeof *b);
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    const char *rule = json_string_value(json_object_get(e, "rule"));
    const char *file = json_string_value(json_object_get(e, "file"));
    const char *fp = json_string_value(json_object_get(e, "fingerprint"));
    if (!rule || !file || !fp) {
      snprintf(err, errlen, "%s: entry %zu needs \"rule\", \"file\" and \"fingerprint\"", path,
               i + 1);
      gm_baseline_free(b);
      json_decref(root);
      return NULL;
    }
    GM_PUSH(b->keys, key_of(rule, file, fp));
  }
  json_decref(root);
  return b;
}

int gm_baseline_contains(const gm_baseline *b, const gm_finding *f) {
  if (!f->fingerprint)
    return 0;
  char *key = key_of(f->rule->id, f->loc.file, f->fingerprint);
  int found = 0;
  for (size_t i = 0; i < b->keys.len && !found; i++)
    found = strcmp(b->keys.items[i], key) == 0;
  free(key);
  return found;
}

void gm_baseline_free(gm_baseline *b) {
  if (!b)
    return;
  for (size_t i = 0; i < b->keys.len; i++)
    free(b->keys.items[i]);
  GM_VEC_FREE(b->keys);
  free(b);
}

json_t *gm_json_string(const char *s);

static int dump_baseline(FILE *out, const void *root) {
  return json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
}

int gm_baseline_write(const char *path, const gm_finding *const *findings, size_t n, char *err,
                      size_t errlen) {
  json_t *root = json_object();
  json_object_set_new(root, "version", json_integer(1));
  json_object_set_new(root, "tool", json_string("gmemlint"));
  json_t *list = json_array();
  for (size_t i = 0; i < n; i++) {
    const gm_finding *f = findings[i];
    json_t *e = json_object();
    json_object_set_new(e, "rule", json_string(f->rule->id));
    json_object_set_new(e, "file", gm_json_string(normal_path(f->loc.file)));
    json_object_set_new(e, "function", gm_json_string(f->function));
    json_object_set_new(e, "fingerprint", gm_json_string(f->fingerprint ? f->fingerprint : ""));
    json_object_set_new(e, "message", gm_json_string(f->message));
    json_array_append_new(list, e);
  }
  json_object_set_new(root, "findings", list);
  int ok = gm_write_atomically(path, "w", dump_baseline, root);
  if (!ok)
    snprintf(err, errlen, "%s: cannot write baseline: %s", path, strerror(errno));
  json_decref(root);
  return ok;
}
