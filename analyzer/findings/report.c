#include "findings/report.h"

#include "findings/rule.h"
#include "flow/flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static gm_loc own_loc(gm_loc loc) {
  loc.file = gm_xstrdup(loc.file ? loc.file : "<unknown>");
  return loc;
}

gm_finding *gm_report_add(gm_report *r, const gm_rule *rule, gm_loc loc, const char *function,
                          const char *fmt, ...) {
  gm_finding f = {0};
  f.rule = rule;
  f.level = rule ? rule->level : GM_LEVEL_WARNING;
  f.loc = own_loc(loc);
  f.function = gm_xstrdup(function ? function : "");
  va_list ap;
  va_start(ap, fmt);
  f.message = gm_xvasprintf(fmt, ap);
  va_end(ap);
  GM_PUSH(r->findings, f);
  return &r->findings.items[r->findings.len - 1];
}

gm_notice *gm_report_notice(gm_report *r, const char *kind, gm_loc loc, const char *function,
                            const char *fmt, ...) {
  gm_notice n = {0};
  n.kind = gm_xstrdup(kind);
  n.loc = own_loc(loc);
  n.function = gm_xstrdup(function ? function : "");
  va_list ap;
  va_start(ap, fmt);
  n.message = gm_xvasprintf(fmt, ap);
  va_end(ap);
  GM_PUSH(r->notices, n);
  return &r->notices.items[r->notices.len - 1];
}

gm_notice *gm_report_suppressed(gm_report *r, const gm_rule *rule, const char *reason, gm_loc loc,
                                const char *function, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *why = gm_xvasprintf(fmt, ap);
  va_end(ap);
  gm_notice *n =
      rule ? gm_report_notice(r, "suppressed", loc, function, "%s %s not reported (%s): %s",
                              rule->id, rule->name, reason, why)
           : gm_report_notice(r, "suppressed", loc, function, "not reported (%s): %s", reason, why);
  free(why);
  n->rule_id = gm_xstrdup(rule ? rule->id : "");
  n->reason = gm_xstrdup(reason);
  return n;
}

void gm_report_cut_short(gm_report *r, const gm_func *fn, int why) {
  gm_report_notice(r, "cut-short", fn->loc, fn->name,
                   "analysis of '%s' was cut short (%s); findings in it may be incomplete",
                   fn->name,
                   why == GM_CUT_STEPS       ? "too many steps"
                   : why == GM_CUT_RECURSION ? "its recursion did not settle"
                                             : "too many paths");
}

void gm_finding_note(gm_finding *f, gm_loc loc, const char *fmt, ...) {
  f->related = gm_xrealloc(f->related, sizeof(gm_related) * (size_t)(f->nrelated + 1));
  gm_related *rel = &f->related[f->nrelated++];
  rel->loc = own_loc(loc);
  va_list ap;
  va_start(ap, fmt);
  rel->message = gm_xvasprintf(fmt, ap);
  va_end(ap);
}

void gm_finding_site(gm_finding *f, gm_loc loc) {
  free((char *)f->site.file);
  f->site = own_loc(loc);
}

void gm_finding_copy_site(gm_finding *f, gm_loc loc) {
  free((char *)f->copy_site.file);
  f->copy_site = own_loc(loc);
}

void gm_finding_fix(gm_finding *f, const char *file, unsigned offset, unsigned length,
                    const char *text) {
  f->fixits = gm_xrealloc(f->fixits, sizeof(gm_fixit) * (size_t)(f->nfixits + 1));
  gm_fixit *x = &f->fixits[f->nfixits++];
  x->file = gm_xstrdup(file);
  x->offset = offset;
  x->length = length;
  x->text = gm_xstrdup(text);
}

void gm_finding_free(gm_finding *f) {
  for (int i = 0; i < f->nfixits; i++) {
    free(f->fixits[i].file);
    free(f->fixits[i].text);
  }
  free(f->fixits);
  free((char *)f->loc.file);
  free((char *)f->site.file);
  free((char *)f->copy_site.file);
  free(f->function);
  free(f->message);
  free(f->fingerprint);
  free(f->evidence);
  for (int i = 0; i < f->nrelated; i++) {
    free((char *)f->related[i].loc.file);
    free(f->related[i].message);
  }
  free(f->related);
}

void gm_notice_free(gm_notice *n) {
  free(n->kind);
  free((char *)n->loc.file);
  free(n->function);
  free(n->message);
  free((char *)n->first.loc.file);
  free(n->first.message);
  free(n->rule_id);
  free(n->reason);
  for (size_t i = 0; i < n->functions_with_errors.len; i++)
    free(n->functions_with_errors.items[i]);
  GM_VEC_FREE(n->functions_with_errors);
}

int gm_notice_counted_once(const gm_notice *n) {
  static const char *const kinds[] = {"cut-short", "parse-errors", "compdb-similar-entry",
                                      "compdb-default-flags"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(n->kind, kinds[i]) == 0)
      return 1;
  return 0;
}

void gm_report_clear(gm_report *r) {
  for (size_t i = 0; i < r->findings.len; i++)
    gm_finding_free(&r->findings.items[i]);
  GM_VEC_FREE(r->findings);
  for (size_t i = 0; i < r->notices.len; i++)
    gm_notice_free(&r->notices.items[i]);
  GM_VEC_FREE(r->notices);
}

const char *gm_finding_severity(const gm_finding *f) {
  if (f->error)
    return "error";
  return f->level == GM_LEVEL_NOTE ? "note" : "warning";
}

const char *gm_path_kind_name(gm_path_kind p) {
  return p == GM_PATH_ERROR ? "error" : p == GM_PATH_NORMAL ? "normal" : NULL;
}

const char *gm_verdict_name(gm_verdict v) {
  static const char *const names[] = {[GM_VERDICT_NONE] = "",
                                      [GM_VERDICT_CONFIRMED] = "confirmed",
                                      [GM_VERDICT_DISMISSED] = "dismissed",
                                      [GM_VERDICT_NOT_EXERCISED] = "not-exercised",
                                      [GM_VERDICT_UNVERIFIABLE] = "unverifiable"};
  return names[v];
}

const char *gm_call_display_name(const gm_node *call) {
  if (!call || !call->name)
    return "the allocation";
  if (strcmp(call->name, "new-array") == 0)
    return "new[]";
  if (strcmp(call->name, "delete-array") == 0)
    return "delete[]";
  /* cuda.h maps cuMemAlloc to cuMemAlloc_v2: name the call as the user wrote it */
  static const char *const versioned[] = {
      "cuMemAlloc_v2",        "cuMemAllocPitch_v2",   "cuMemAllocHost_v2",   "cuMemFree_v2",
      "cuArrayCreate_v2",     "cuMemcpyHtoD_v2",      "cuMemcpyDtoH_v2",     "cuMemcpyDtoD_v2",
      "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoDAsync_v2"};
  static const char *const plain[] = {"cuMemAlloc",        "cuMemAllocPitch",  "cuMemAllocHost",
                                      "cuMemFree",         "cuArrayCreate",    "cuMemcpyHtoD",
                                      "cuMemcpyDtoH",      "cuMemcpyDtoD",     "cuMemcpyHtoDAsync",
                                      "cuMemcpyDtoHAsync", "cuMemcpyDtoDAsync"};
  for (size_t i = 0; i < sizeof versioned / sizeof versioned[0]; i++)
    if (strcmp(call->name, versioned[i]) == 0)
      return plain[i];
  return call->name;
}

const gm_rule *gm_rule_table_find(const gm_rule_table *t, const char *id_or_name) {
  for (size_t i = 0; i < t->count; i++)
    if (strcasecmp(t->rules[i]->id, id_or_name) == 0 || strcmp(t->rules[i]->name, id_or_name) == 0)
      return t->rules[i];
  return NULL;
}

int gm_rule_table_index(const gm_rule_table *t, const gm_rule *rule) {
  for (size_t i = 0; i < t->count; i++)
    if (t->rules[i] == rule)
      return (int)i;
  return -1;
}
