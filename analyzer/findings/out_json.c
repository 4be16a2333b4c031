/* --format=json: {"version":1,"tool":"gmemlint","findings":[...],"notices":[...]}; schema in
 * docs/json-format.md */
#include "findings/output.h"
#include "support/version.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* jansson rejects invalid UTF-8; source text and file names may hold it. */
json_t *gm_json_string(const char *s) {
  json_t *j = json_string(s ? s : "");
  if (!j) {
    char *clean = gm_utf8_sanitize(s);
    j = json_string(clean);
    free(clean);
  }
  return j;
}

static json_t *finding_json(const gm_finding *f) {
  json_t *o = json_object();
  json_object_set_new(o, "rule", gm_json_string(f->rule->id));
  json_object_set_new(o, "name", gm_json_string(f->rule->name));
  json_object_set_new(o, "severity", gm_json_string(gm_finding_severity(f)));
  json_object_set_new(o, "file", gm_json_string(f->loc.file));
  json_object_set_new(o, "line", json_integer(f->loc.line));
  json_object_set_new(o, "column", json_integer(f->loc.col));
  json_object_set_new(o, "function", gm_json_string(f->function));
  json_object_set_new(o, "message", gm_json_string(f->message));
  json_t *rel = json_array();
  for (int i = 0; i < f->nrelated; i++) {
    json_t *r = json_object();
    json_object_set_new(r, "file", gm_json_string(f->related[i].loc.file));
    json_object_set_new(r, "line", json_integer(f->related[i].loc.line));
    json_object_set_new(r, "column", json_integer(f->related[i].loc.col));
    json_object_set_new(r, "message", gm_json_string(f->related[i].message));
    json_array_append_new(rel, r);
  }
  json_object_set_new(o, "related", rel);
  if (gm_path_kind_name(f->path)) /* leaks: on the normal path, or only after a failed call */
    json_object_set_new(o, "path", json_string(gm_path_kind_name(f->path)));
  if (f->fingerprint)
    json_object_set_new(o, "fingerprint", gm_json_string(f->fingerprint));
  if (f->verdict != GM_VERDICT_NONE) {
    json_object_set_new(o, "verdict", json_string(gm_verdict_name(f->verdict)));
    json_object_set_new(o, "evidence", gm_json_string(f->evidence));
  }
  return o;
}

json_t *gm_analysis_summary_json(const gm_analysis_summary *s) {
  return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "files", (json_int_t)s->files, "files_analysed",
                   (json_int_t)s->files_analysed, "files_with_errors",
                   (json_int_t)s->files_with_errors, "files_not_analysed",
                   (json_int_t)s->files_not_analysed, "functions_with_errors",
                   (json_int_t)s->functions_with_errors, "analyses_cut_short",
                   (json_int_t)s->analyses_cut_short);
}

int gm_print_json(FILE *out, const gm_output_file *files, size_t nfiles,
                  const gm_analysis_summary *summary) {
  json_t *root = json_object();
  json_object_set_new(root, "version", json_integer(1));
  json_object_set_new(root, "tool", json_string("gmemlint"));
  json_object_set_new(root, "tool_version", json_string(GM_VERSION));
  json_t *arr = json_array();
  for (size_t i = 0; i < nfiles; i++)
    for (size_t k = 0; k < files[i].nfindings; k++)
      json_array_append_new(arr, finding_json(&files[i].findings[k]));
  json_object_set_new(root, "findings", arr);
  /* about the analysis itself, not defects: a function cut short, a file clang could not parse
   * in full, a file missing from the compile database */
  json_t *notices = json_array();
  json_t *suppressed = json_array(); /* --explain: findings kept from the report, and why */
  for (size_t i = 0; i < nfiles; i++)
    for (size_t k = 0; k < files[i].nnotices; k++) {
      const gm_notice *n = &files[i].notices[k];
      json_t *o = json_object();
      if (strcmp(n->kind, "suppressed") == 0) {
        json_object_set_new(o, "rule", gm_json_string(n->rule_id));
        json_object_set_new(o, "reason", gm_json_string(n->reason));
        json_object_set_new(o, "file", gm_json_string(n->loc.file));
        json_object_set_new(o, "line", json_integer(n->loc.line));
        json_object_set_new(o, "column", json_integer(n->loc.col));
        json_object_set_new(o, "function", gm_json_string(n->function));
        json_object_set_new(o, "message", gm_json_string(n->message));
        json_array_append_new(suppressed, o);
        continue;
      }
      json_object_set_new(o, "kind", gm_json_string(n->kind));
      json_object_set_new(o, "file", gm_json_string(n->loc.file));
      json_object_set_new(o, "line", json_integer(n->loc.line));
      json_object_set_new(o, "column", json_integer(n->loc.col));
      json_object_set_new(o, "function", gm_json_string(n->function));
      json_object_set_new(o, "message", gm_json_string(n->message));
      if (n->first.message) { /* parse-errors: how many, the first, and whether all were lost */
        json_object_set_new(o, "errors", json_integer(n->count));
        json_t *first = json_object();
        json_object_set_new(first, "file", gm_json_string(n->first.loc.file));
        json_object_set_new(first, "line", json_integer(n->first.loc.line));
        json_object_set_new(first, "column", json_integer(n->first.loc.col));
        json_object_set_new(first, "message", gm_json_string(n->first.message));
        json_object_set_new(o, "first_error", first);
        json_object_set_new(o, "analysed", json_boolean(!n->fatal));
        json_object_set_new(o, "functions", json_integer(n->functions));
        json_t *names = json_array();
        for (size_t i = 0; i < n->functions_with_errors.len; i++)
          json_array_append_new(names, gm_json_string(n->functions_with_errors.items[i]));
        json_object_set_new(o, "functions_with_errors", names);
      }
      json_array_append_new(notices, o);
    }
  json_object_set_new(root, "notices", notices);
  if (summary)
    json_object_set_new(root, "summary", gm_analysis_summary_json(summary));
  if (json_array_size(suppressed))
    json_object_set_new(root, "suppressed", suppressed);
  else
    json_decref(suppressed);
  int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', out);
  json_decref(root);
  return rc;
}
