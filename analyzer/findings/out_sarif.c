/* --format=sarif: SARIF 2.1.0 as GitHub code scanning reads it. */
#include "findings/output.h"
#include "support/version.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

json_t *gm_json_string(const char *s);

static void append_uri_escaped(gm_strbuf *sb, const char *path) {
  static const char safe[] = "-._~/!$&'()*+,;=:@";
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr(safe, *p))
      gm_sb_appendn(sb, (const char *)p, 1);
    else
      gm_sb_printf(sb, "%%%02X", *p);
  }
}

/* A URI for path: relative to root when inside it (with base id), else an absolute file URI. */
static json_t *artifact_location(const char *path, const char *root_abs) {
  char abs[PATH_MAX];
  json_t *loc = json_object();
  gm_strbuf sb = {0};
  if (root_abs && realpath(path, abs)) {
    size_t n = strlen(root_abs);
    if (strncmp(abs, root_abs, n) == 0 && (abs[n] == '/' || root_abs[n - 1] == '/')) {
      append_uri_escaped(&sb, abs + n + (abs[n] == '/'));
      json_object_set_new(loc, "uri", gm_json_string(sb.data));
      json_object_set_new(loc, "uriBaseId", json_string("SRCROOT"));
    } else {
      gm_sb_append(&sb, "file://");
      append_uri_escaped(&sb, abs);
      json_object_set_new(loc, "uri", gm_json_string(sb.data));
    }
  } else {
    append_uri_escaped(&sb, path);
    json_object_set_new(loc, "uri", gm_json_string(sb.data));
  }
  free(sb.data);
  return loc;
}

static json_t *physical_location(gm_loc l, const char *root_abs) {
  json_t *pl = json_object();
  json_object_set_new(pl, "artifactLocation", artifact_location(l.file, root_abs));
  json_t *region = json_object();
  json_object_set_new(region, "startLine", json_integer(l.line ? l.line : 1));
  json_object_set_new(region, "startColumn", json_integer(l.col ? l.col : 1));
  json_object_set_new(pl, "region", region);
  return pl;
}

/* A location: where, and in which function (when known). */
static json_t *location(gm_loc l, const char *function, const char *root_abs) {
  json_t *loc = json_object();
  json_object_set_new(loc, "physicalLocation", physical_location(l, root_abs));
  if (function && *function) {
    json_t *logical = json_array();
    json_t *lo = json_object();
    json_object_set_new(lo, "name", gm_json_string(function));
    json_object_set_new(lo, "kind", json_string("function"));
    json_array_append_new(logical, lo);
    json_object_set_new(loc, "logicalLocations", logical);
  }
  return loc;
}

static json_t *text_obj(const char *s) {
  json_t *o = json_object();
  json_object_set_new(o, "text", gm_json_string(s));
  return o;
}

static json_t *rules_json(const gm_rule_table *table) {
  json_t *rules = json_array();
  for (size_t i = 0; i < table->count; i++) {
    const gm_rule *r = table->rules[i];
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(r->id));
    json_object_set_new(o, "name", json_string(r->name));
    json_object_set_new(o, "shortDescription", text_obj(r->summary));
    json_object_set_new(o, "fullDescription", text_obj(r->description));
    char *help = gm_xasprintf("%s\n\nFix: %s", r->description, r->fix);
    char *md = gm_xasprintf("**%s %s**: %s\n\n**Fix:** %s\n\nSee docs/rules/%s.md.", r->id, r->name,
                            r->description, r->fix, r->id);
    json_t *h = text_obj(help);
    json_object_set_new(h, "markdown", gm_json_string(md));
    json_object_set_new(o, "help", h);
    free(help);
    free(md);
    json_t *cfg = json_object();
    json_object_set_new(cfg, "level", json_string(r->level == GM_LEVEL_NOTE ? "note" : "warning"));
    if (r->off_by_default) /* GM004, GM005: run only when enabled */
      json_object_set_new(cfg, "enabled", json_false());
    json_object_set_new(o, "defaultConfiguration", cfg);
    json_t *props = json_object();
    json_t *tags = json_array();
    json_array_append_new(tags, json_string("cuda"));
    json_array_append_new(tags, json_string("memory"));
    if (!r->check) /* found in runtime telemetry only (--telemetry) */
      json_array_append_new(tags, json_string("runtime"));
    json_object_set_new(props, "tags", tags);
    json_object_set_new(o, "properties", props);
    json_array_append_new(rules, o);
  }
  return rules;
}

/* A file clang could not parse at all is an error, one parsed in part or missing from the
 * compile database a warning; a function cut short is a note. */
static const char *notice_level(const gm_notice *n) {
  if (strcmp(n->kind, "parse-errors") == 0)
    return n->fatal ? "error" : "warning";
  return strncmp(n->kind, "compdb-", 7) == 0 ? "warning" : "note";
}

int gm_print_sarif(FILE *out, const gm_output_file *files, size_t nfiles, const char *sarif_root,
                   const char *const *input_errors, size_t ninput_errors,
                   const gm_rule_table *rules, const gm_analysis_summary *summary) {
  char root_abs[PATH_MAX];
  const char *root = realpath(sarif_root ? sarif_root : ".", root_abs) ? root_abs : NULL;
  json_t *doc = json_object();
  json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
  json_object_set_new(doc, "version", json_string("2.1.0"));
  json_t *run = json_object();
  json_t *tool = json_object();
  json_t *driver = json_object();
  json_object_set_new(driver, "name", json_string("gmemlint"));
  json_object_set_new(driver, "version", json_string(GM_VERSION));
  json_object_set_new(driver, "semanticVersion", json_string(GM_VERSION));
  json_object_set_new(driver, "informationUri", json_string(GM_INFORMATION_URI));
  json_object_set_new(driver, "rules", rules_json(rules));
  json_object_set_new(tool, "driver", driver);
  json_object_set_new(run, "tool", tool);
  if (root) {
    json_t *bases = json_object();
    json_t *base = json_object();
    gm_strbuf sb = {0};
    gm_sb_append(&sb, "file://");
    append_uri_escaped(&sb, root);
    if (sb.data[sb.len - 1] != '/')
      gm_sb_append(&sb, "/");
    json_object_set_new(base, "uri", gm_json_string(sb.data));
    free(sb.data);
    json_object_set_new(bases, "SRCROOT", base);
    json_object_set_new(run, "originalUriBaseIds", bases);
  }
  json_t *results = json_array();
  for (size_t i = 0; i < nfiles; i++) {
    for (size_t k = 0; k < files[i].nfindings; k++) {
      const gm_finding *f = &files[i].findings[k];
      json_t *res = json_object();
      json_object_set_new(res, "ruleId", json_string(f->rule->id));
      int index = gm_rule_table_index(rules, f->rule);
      json_object_set_new(res, "ruleIndex", json_integer(index < 0 ? 0 : index));
      json_object_set_new(res, "level", json_string(gm_finding_severity(f)));
      char *msg = gm_xasprintf("%s [%s %s]", f->message, f->rule->id, f->rule->name);
      json_object_set_new(res, "message", text_obj(msg));
      free(msg);
      json_t *locs = json_array();
      json_array_append_new(locs, location(f->loc, f->function, root));
      json_object_set_new(res, "locations", locs);
      json_t *related = json_array();
      for (int r = 0; r < f->nrelated; r++) {
        json_t *rl = json_object();
        json_object_set_new(rl, "id", json_integer(r + 1));
        json_object_set_new(rl, "physicalLocation", physical_location(f->related[r].loc, root));
        json_object_set_new(rl, "message", text_obj(f->related[r].message));
        json_array_append_new(related, rl);
      }
      json_object_set_new(res, "relatedLocations", related);
      if (f->fingerprint) {
        json_t *fp = json_object();
        json_object_set_new(fp, "primaryLocationLineHash", gm_json_string(f->fingerprint));
        json_object_set_new(res, "partialFingerprints", fp);
      }
      json_t *props = json_object();
      if (gm_path_kind_name(f->path)) /* a leak: "normal", or "error" (level note) */
        json_object_set_new(props, "path", json_string(gm_path_kind_name(f->path)));
      if (f->verdict != GM_VERDICT_NONE) {
        json_object_set_new(props, "verdict", json_string(gm_verdict_name(f->verdict)));
        json_object_set_new(props, "evidence", gm_json_string(f->evidence));
      }
      if (json_object_size(props))
        json_object_set_new(res, "properties", props);
      else
        json_decref(props);
      if (f->verdict == GM_VERDICT_DISMISSED) {
        /* the runtime contradicts it: code scanning shows it as dismissed, not as an alert */
        json_t *sup = json_object();
        json_object_set_new(sup, "kind", json_string("external"));
        json_object_set_new(sup, "justification", gm_json_string(f->evidence));
        json_t *sups = json_array();
        json_array_append_new(sups, sup);
        json_object_set_new(res, "suppressions", sups);
      }
      json_array_append_new(results, res);
    }
  }
  json_object_set_new(run, "results", results);
  json_t *invocations = json_array();
  json_t *inv = json_object();
  /* a file that clang could not parse in full was not analysed in full: findings may be missing */
  int parsed_all = 1;
  for (size_t i = 0; i < nfiles; i++)
    for (size_t k = 0; k < files[i].nnotices; k++)
      parsed_all &= strcmp(files[i].notices[k].kind, "parse-errors") != 0;
  json_object_set_new(inv, "executionSuccessful", json_boolean(ninput_errors == 0 && parsed_all));
  json_t *notes = json_array();
  for (size_t i = 0; i < ninput_errors; i++) {
    json_t *n = json_object();
    json_object_set_new(n, "level", json_string("error"));
    json_object_set_new(n, "message", text_obj(input_errors[i]));
    json_array_append_new(notes, n);
  }
  /* notices about the analysis (a function cut short, a file parsed in part): with the
   * function's location, or the file's (a region only where a line is known) */
  for (size_t i = 0; i < nfiles; i++)
    for (size_t k = 0; k < files[i].nnotices; k++) {
      const gm_notice *nt = &files[i].notices[k];
      if (strcmp(nt->kind, "not-analysed") == 0)
        continue; /* an input error: said above, at level error */
      json_t *n = json_object();
      json_t *locs = json_array();
      json_t *loc = location(nt->loc, nt->function, root);
      if (!nt->loc.line)
        json_object_del(json_object_get(loc, "physicalLocation"), "region");
      json_array_append_new(locs, loc);
      json_object_set_new(n, "locations", locs);
      json_object_set_new(n, "level", json_string(notice_level(nt)));
      json_object_set_new(n, "message", text_obj(nt->message));
      json_t *desc = json_object();
      json_object_set_new(desc, "id", gm_json_string(nt->kind));
      json_object_set_new(n, "descriptor", desc);
      if (nt->first.message) { /* parse-errors: clang's count and the functions, as JSON's */
        json_t *props = json_object();
        json_object_set_new(props, "errors", json_integer(nt->count));
        json_object_set_new(props, "functions", json_integer(nt->functions));
        json_t *names = json_array();
        for (size_t i = 0; i < nt->functions_with_errors.len; i++)
          json_array_append_new(names, gm_json_string(nt->functions_with_errors.items[i]));
        json_object_set_new(props, "functionsWithErrors", names);
        json_object_set_new(n, "properties", props);
      }
      json_array_append_new(notes, n);
    }
  json_object_set_new(inv, "toolExecutionNotifications", notes);
  if (summary) { /* what the run analysed and what it lost, as the JSON output's "summary" */
    json_t *props = json_object();
    json_object_set_new(props, "summary", gm_analysis_summary_json(summary));
    json_object_set_new(inv, "properties", props);
  }
  json_array_append_new(invocations, inv);
  json_object_set_new(run, "invocations", invocations);
  json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
  json_t *runs = json_array();
  json_array_append_new(runs, run);
  json_object_set_new(doc, "runs", runs);
  int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', out);
  json_decref(doc);
  return rc;
}
