#include "runtime_view/join.h"
#include "runtime_view/torch_view.h"

#include "model/families.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct covered {
  const gm_tsite *site;
  const gm_rule *rule;
} covered;

typedef struct input {
  const char *path;
  const gm_source *src; /* borrowed, or owned when read here */
  gm_source *owned;
} input;

struct gm_join {
  const gm_telemetry *t;
  const gm_rule_table *rules;
  GM_VEC(covered) covered;
  GM_VEC(input) inputs;
};

gm_join *gm_join_new(const gm_telemetry *t, const gm_rule_table *rules) {
  gm_join *j = gm_xcalloc(1, sizeof *j);
  j->t = t;
  j->rules = rules;
  return j;
}

void gm_join_free(gm_join *j) {
  if (!j)
    return;
  for (size_t i = 0; i < j->inputs.len; i++) {
    if (j->inputs.items[i].owned) {
      gm_source_free(j->inputs.items[i].owned);
      free(j->inputs.items[i].owned);
      free((char *)j->inputs.items[i].path);
    }
  }
  GM_VEC_FREE(j->inputs);
  GM_VEC_FREE(j->covered);
  free(j);
}

/* ---- judge helpers ---- */

gm_verdict gm_judge_say(gm_judge_ctx *c, gm_verdict v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  free(c->evidence);
  c->evidence = gm_xvasprintf(fmt, ap);
  va_end(ap);
  return v;
}

const gm_tsite *gm_judge_find(const gm_judge_ctx *c, gm_loc loc, enum gm_site_kind kind) {
  return gm_telemetry_find(c->telemetry, loc.file, loc.line, loc.col, kind);
}

const char *gm_plural(uint64_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

char *gm_site_frees_text(const gm_tsite *s) {
  if (!s->frees.len)
    return gm_xstrdup("none");
  gm_strbuf sb = {0};
  for (size_t i = 0; i < s->frees.len; i++)
    gm_sb_printf(&sb, "%s%s %llu", i ? ", " : "", s->frees.items[i].name,
                 (unsigned long long)s->frees.items[i].n);
  return gm_sb_take(&sb);
}

char *gm_site_all_freed_text(const gm_tsite *s, const char *frees_more) {
  char *frees = gm_site_frees_text(s);
  char *text;
  if (!s->failed_calls) {
    text = gm_xasprintf("ran %llu %s and every allocation was freed (frees: %s%s)",
                        (unsigned long long)s->calls, gm_plural(s->calls, "time", "times"), frees,
                        frees_more);
  } else {
    /* a failed allocation left nothing to free: "freed" speaks of the ones that succeeded */
    uint64_t made = s->calls + s->failed_calls;
    char *failed = gm_site_failed_text(s);
    text = gm_xasprintf("ran %llu %s: %s and the %llu that succeeded %s freed (frees: %s%s)",
                        (unsigned long long)made, gm_plural(made, "time", "times"), failed,
                        (unsigned long long)s->calls, s->calls == 1 ? "was" : "were all", frees,
                        frees_more);
    free(failed);
  }
  free(frees);
  return text;
}

const gm_family *gm_site_family(const gm_tsite *s) {
  return s->family ? gm_table_family(gm_table_builtin(), s->family) : NULL;
}

char *gm_site_stack_text(const gm_tsite *s) {
  char *stack = gm_site_stack(s);
  char *text = stack ? gm_xasprintf(", stack: %s", stack) : gm_xstrdup("");
  free(stack);
  return text;
}

/* The identifier written at loc ("cudaMalloc", "new", "free"), or 0 when there is none. */
static int name_at(const gm_source *src, gm_loc loc, char *buf, size_t n) {
  size_t len;
  const char *line = src ? gm_source_line(src, loc.line, &len) : NULL;
  if (!line || loc.col < 1 || loc.col > len)
    return 0;
  size_t i = loc.col - 1, k = 0;
  while (i < len && k + 1 < n && (isalnum((unsigned char)line[i]) || line[i] == '_'))
    buf[k++] = line[i++];
  buf[k] = 0;
  return k > 0;
}

/* Calls the runtime does not record: host allocators and frees (malloc, new, free, delete), and
 * copies other than the ones include/gmemlint/gmem_forced.h routes to it. */
static int unrecorded_call(const char *name, const char **what) {
  const gm_fn *fn = gm_table_lookup(gm_table_builtin(), name);
  if (!fn)
    return 0;
  *what = "host call";
  if (fn->family)
    return !fn->family->gpu;
  if (fn->kind == GM_FN_FREE && fn->nfrees > 0) {
    for (int i = 0; i < fn->nfrees; i++)
      if (fn->frees[i]->gpu)
        return 0;
    return 1;
  }
  if (fn->kind == GM_FN_COPY) {
    *what = "copy it does not hook";
    return strcmp(name, "cudaMemcpy") != 0 && strcmp(name, "cudaMemcpyAsync") != 0;
  }
  return 0;
}

/* Whether the telemetry has any site from this source file. */
static int file_in_telemetry(const gm_telemetry *t, const char *file) {
  char real[PATH_MAX];
  const char *resolved = realpath(file, real);
  for (size_t i = 0; i < t->sites.len; i++) {
    const gm_tsite *s = &t->sites.items[i];
    if (!s->no_source && gm_path_match(file, resolved, s->file, s->real, s->file_absolute))
      return 1;
  }
  return 0;
}

gm_verdict gm_judge_unseen(gm_judge_ctx *c, const gm_tsite *s, gm_loc loc, const char *what) {
  if (s && s->kind == GM_SITE_ALLOC && !s->calls && s->failed_calls) {
    char *failed = gm_site_failed_text(s);
    gm_verdict v = gm_judge_say(c, GM_VERDICT_NOT_EXERCISED,
                                "%s: nothing was allocated, so nothing was live to free", failed);
    free(failed);
    return v;
  }
  char name[128];
  const char *kind;
  if (!s && name_at(c->src, loc, name, sizeof name) && unrecorded_call(name, &kind))
    return gm_judge_say(c, GM_VERDICT_UNVERIFIABLE, "the runtime does not record %s (a %s)", name,
                        kind);
  size_t runs = c->telemetry->runs.len;
  if (!s && !file_in_telemetry(c->telemetry, loc.file))
    return gm_judge_say(c, GM_VERDICT_NOT_EXERCISED,
                        "no site of this file ran in %zu telemetry %s (was it built with gmemcc?)",
                        runs, gm_plural(runs, "file", "files"));
  return gm_judge_say(c, GM_VERDICT_NOT_EXERCISED, "the %s at line %u never ran in %zu %s", what,
                      loc.line, runs, gm_plural(runs, "run", "runs"));
}

int gm_judge_um_collected(const gm_judge_ctx *c, const gm_tsite *s, const char **reason) {
  if (s && s->um_collected)
    return 1;
  *reason = "no run recorded unified-memory counters";
  for (size_t i = 0; i < c->telemetry->runs.len; i++)
    if (!c->telemetry->runs.items[i].um_available && c->telemetry->runs.items[i].um_reason[0]) {
      *reason = c->telemetry->runs.items[i].um_reason;
      break;
    }
  return 0;
}

/* ---- runtime-only helpers ---- */

int gm_runtime_covered(const gm_runtime_ctx *c, const gm_tsite *s, const char *rule_id) {
  for (size_t i = 0; i < c->join->covered.len; i++)
    if (c->join->covered.items[i].site == s &&
        strcmp(c->join->covered.items[i].rule->id, rule_id) == 0)
      return 1;
  return 0;
}

gm_finding *gm_runtime_add(const gm_runtime_ctx *c, const gm_rule *rule, const char *file,
                           unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = gm_xvasprintf(fmt, ap);
  va_end(ap);
  gm_loc loc = {file, line, col};
  gm_finding *f = gm_report_add(c->report, rule, loc, "", "%s", msg);
  free(msg);
  f->verdict = GM_VERDICT_CONFIRMED;
  return f;
}

void gm_runtime_evidence(gm_finding *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  free(f->evidence);
  f->evidence = gm_xvasprintf(fmt, ap);
  va_end(ap);
}

static int same_oom_site(const gm_toom *a, const gm_toom *b) {
  if (!a->file || !b->file)
    return !a->file && !b->file && a->source == b->source;
  return a->line == b->line && strcmp(a->file, b->file) == 0 && strcmp(a->api, b->api) == 0;
}

size_t gm_runtime_oom_group(const gm_runtime_ctx *c, size_t i, gm_oom_verdict verdict) {
  const gm_toom *e = &c->telemetry->ooms.items[i];
  if (gm_oom_judge(e) != verdict || gm_torch_judges_oom(c->telemetry, e))
    return 0;
  for (size_t k = 0; k < i; k++)
    if (gm_oom_judge(&c->telemetry->ooms.items[k]) == verdict &&
        same_oom_site(&c->telemetry->ooms.items[k], e))
      return 0;
  size_t n = 0;
  for (size_t k = i; k < c->telemetry->ooms.len; k++)
    n += gm_oom_judge(&c->telemetry->ooms.items[k]) == verdict &&
         same_oom_site(&c->telemetry->ooms.items[k], e);
  return n;
}

/* ---- the join ---- */

static const gm_source *source_of(gm_join *j, const char *path) {
  for (size_t i = 0; i < j->inputs.len; i++)
    if (strcmp(j->inputs.items[i].path, path) == 0)
      return j->inputs.items[i].src;
  /* a header, or a finding read from a .gmemlint.json: its source, if it is here */
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text)
    return NULL;
  input in = {gm_xstrdup(path), NULL, gm_xcalloc(1, sizeof(gm_source))};
  gm_source_init(in.owned, text, len);
  in.src = in.owned;
  GM_PUSH(j->inputs, in);
  return in.src;
}

void gm_join_file(gm_join *j, const char *path, const gm_source *src, const gm_thresholds *limits,
                  gm_report *r) {
  if (src && src->text) {
    input in = {path, src, NULL};
    GM_PUSH(j->inputs, in);
  }
  for (size_t i = 0; i < r->findings.len; i++) {
    gm_finding *f = &r->findings.items[i];
    gm_judge_ctx c = {f, j->t, NULL, limits, NULL, NULL};
    c.src = source_of(j, f->loc.file);
    gm_verdict v;
    if (f->rule->judge)
      v = f->rule->judge(&c);
    else
      v = gm_judge_say(&c, GM_VERDICT_UNVERIFIABLE, "the runtime collects no evidence for %s",
                       f->rule->id);
    f->verdict = v;
    free(f->evidence);
    f->evidence = c.evidence ? c.evidence : gm_xstrdup("");
    if (c.site) {
      covered cv = {c.site, f->rule};
      GM_PUSH(j->covered, cv);
    }
  }
}

const gm_source *gm_join_source(const gm_join *j, const char *path) {
  for (size_t i = 0; i < j->inputs.len; i++)
    if (strcmp(j->inputs.items[i].path, path) == 0)
      return j->inputs.items[i].src;
  return NULL;
}

/* Fingerprint of a runtime finding: rule, the site's file name (not its directory, which varies
 * between machines), line and message kind; stable across runs of the same build. */
static void runtime_fingerprint(gm_finding *f) {
  const char *base = strrchr(f->loc.file, '/');
  base = base ? base + 1 : f->loc.file;
  uint64_t h = gm_hash64(f->rule->id, strlen(f->rule->id), 0);
  h = gm_hash64(base, strlen(base), h);
  h = gm_hash64(&f->loc.line, sizeof f->loc.line, h);
  free(f->fingerprint);
  f->fingerprint = gm_xasprintf("%016llx:1", (unsigned long long)h);
}

void gm_join_runtime(gm_join *j, uint64_t enabled, gm_report *out) {
  gm_runtime_ctx c = {j->t, j, out};
  for (size_t i = 0; i < j->rules->count; i++)
    if (j->rules->rules[i]->runtime && (enabled & (1ULL << i)))
      j->rules->rules[i]->runtime(&c);
  /* name the input file the site is in, as the user gave it */
  for (size_t i = 0; i < out->findings.len; i++) {
    gm_finding *f = &out->findings.items[i];
    char real[PATH_MAX];
    const char *site_real = realpath(f->loc.file, real);
    const char *best = NULL;
    int best_score = 0;
    for (size_t k = 0; k < j->inputs.len; k++) {
      const char *p = j->inputs.items[k].path;
      char preal[PATH_MAX];
      int score =
          gm_path_match(p, realpath(p, preal), f->loc.file, site_real, f->loc.file[0] == '/');
      if (score > best_score) {
        best = p;
        best_score = score;
      }
    }
    if (best) {
      free((char *)f->loc.file);
      f->loc.file = gm_xstrdup(best);
    }
    runtime_fingerprint(f);
  }
}

/* ---- findings files (*.gmemlint.json) ---- */

int gm_is_findings_file(const char *path) {
  static const char suffix[] = ".gmemlint.json";
  size_t n = strlen(path), k = sizeof suffix - 1;
  return n > k && strcmp(path + n - k, suffix) == 0;
}

static int want(json_t *o, const char *key, int type, int required, const char *where,
                const char *path, char *err, size_t errlen) {
  json_t *v = json_object_get(o, key);
  if (!v) {
    if (required)
      snprintf(err, errlen, "%s: %s: missing \"%s\"", path, where, key);
    return !required;
  }
  int ok = type == JSON_INTEGER ? json_is_integer(v) && json_integer_value(v) >= 0
                                : (int)json_typeof(v) == type;
  if (!ok)
    snprintf(err, errlen, "%s: %s.%s: expected %s", path, where, key,
             type == JSON_INTEGER  ? "a non-negative integer"
             : type == JSON_STRING ? "a string"
             : type == JSON_ARRAY  ? "an array"
                                   : "an object");
  return ok;
}

int gm_findings_read(const char *path, const gm_rule_table *rules, gm_report *out, char *err,
                     size_t errlen) {
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return 0;
  }
  json_error_t jerr;
  json_t *root = json_loadb(text, len, 0, &jerr);
  free(text);
  if (!root) {
    snprintf(err, errlen, "%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column, jerr.text);
    return 0;
  }
  int ok = 0;
  json_t *findings = json_object_get(root, "findings");
  const char *tool = json_string_value(json_object_get(root, "tool"));
  if (!json_is_object(root) || !tool || strcmp(tool, "gmemlint") != 0 || !json_is_array(findings)) {
    snprintf(err, errlen,
             "%s: not gmemlint findings (expected gmemlint --format=json output: {\"version\": 1, "
             "\"tool\": \"gmemlint\", \"findings\": [...]})",
             path);
    goto out;
  }
  if (json_integer_value(json_object_get(root, "version")) != 1) {
    snprintf(err, errlen, "%s: findings format version is not 1 (this gmemlint reads version 1)",
             path);
    goto out;
  }
  size_t i;
  json_t *e;
  json_array_foreach(findings, i, e) {
    char where[48];
    snprintf(where, sizeof where, "findings[%zu]", i);
    if (!json_is_object(e)) {
      snprintf(err, errlen, "%s: %s: expected an object", path, where);
      goto out;
    }
    if (!want(e, "rule", JSON_STRING, 1, where, path, err, errlen) ||
        !want(e, "file", JSON_STRING, 1, where, path, err, errlen) ||
        !want(e, "line", JSON_INTEGER, 1, where, path, err, errlen) ||
        !want(e, "column", JSON_INTEGER, 0, where, path, err, errlen) ||
        !want(e, "message", JSON_STRING, 1, where, path, err, errlen) ||
        !want(e, "function", JSON_STRING, 0, where, path, err, errlen) ||
        !want(e, "fingerprint", JSON_STRING, 0, where, path, err, errlen) ||
        !want(e, "related", JSON_ARRAY, 0, where, path, err, errlen))
      goto out;
    const char *id = json_string_value(json_object_get(e, "rule"));
    const gm_rule *rule = gm_rule_table_find(rules, id);
    if (!rule) {
      snprintf(err, errlen, "%s: %s.rule: unknown rule '%s'", path, where, id);
      goto out;
    }
    if (!rule->check)
      continue; /* a runtime-only finding from an earlier join: the telemetry gives it anew */
    gm_loc loc = {json_string_value(json_object_get(e, "file")),
                  (unsigned)json_integer_value(json_object_get(e, "line")),
                  (unsigned)json_integer_value(json_object_get(e, "column"))};
    const char *fn = json_string_value(json_object_get(e, "function"));
    gm_finding *f = gm_report_add(out, rule, loc, fn ? fn : "", "%s",
                                  json_string_value(json_object_get(e, "message")));
    const char *fp = json_string_value(json_object_get(e, "fingerprint"));
    if (fp)
      f->fingerprint = gm_xstrdup(fp);
    /* an error-path leak stays a note when the findings come back from a file */
    const char *severity = json_string_value(json_object_get(e, "severity"));
    const char *kind = json_string_value(json_object_get(e, "path"));
    if (severity && strcmp(severity, "note") == 0)
      f->level = GM_LEVEL_NOTE;
    if (kind)
      f->path = strcmp(kind, "error") == 0    ? GM_PATH_ERROR
                : strcmp(kind, "normal") == 0 ? GM_PATH_NORMAL
                                              : GM_PATH_NONE;
    size_t k;
    json_t *rel;
    json_array_foreach(json_object_get(e, "related"), k, rel) {
      char rwhere[80];
      snprintf(rwhere, sizeof rwhere, "%s.related[%zu]", where, k);
      if (!json_is_object(rel)) {
        snprintf(err, errlen, "%s: %s: expected an object", path, rwhere);
        goto out;
      }
      if (!want(rel, "file", JSON_STRING, 1, rwhere, path, err, errlen) ||
          !want(rel, "line", JSON_INTEGER, 1, rwhere, path, err, errlen) ||
          !want(rel, "column", JSON_INTEGER, 0, rwhere, path, err, errlen) ||
          !want(rel, "message", JSON_STRING, 1, rwhere, path, err, errlen))
        goto out;
      gm_loc rl = {json_string_value(json_object_get(rel, "file")),
                   (unsigned)json_integer_value(json_object_get(rel, "line")),
                   (unsigned)json_integer_value(json_object_get(rel, "column"))};
      const char *note = json_string_value(json_object_get(rel, "message"));
      gm_finding_note(f, rl, "%s", note);
      /* a findings file (version 1) names the allocation and copy sites only by their notes */
      if (!f->site.file && strncmp(note, "allocated here", strlen("allocated here")) == 0)
        gm_finding_site(f, rl);
      if (!f->copy_site.file &&
          strncmp(note, "the old contents are copied", strlen("the old contents are copied")) == 0)
        gm_finding_copy_site(f, rl);
    }
  }
  ok = 1;
out:
  json_decref(root);
  return ok;
}
