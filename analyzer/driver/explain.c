/* --explain: what a run keeps from its report, said. Rules record their exemptions and
 * thresholds as "suppressed" notices (gm_report_suppressed); the driver adds the latent filter's
 * findings, NOLINT comments and functions cut short, and keeps all of them only under --explain. */
#include "driver/explain.h"

#include "driver/passes.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static int is_latent(const gm_fact *f) {
  return f->latent && (f->kind == GM_FACT_LEAK || f->kind == GM_FACT_MISMATCH ||
                       f->kind == GM_FACT_OFFSET_FREE || f->kind == GM_FACT_DOUBLE_FREE);
}

/* Whether the report holds a finding of rule at loc (a latent fact of an allocation that a
 * manifest one already reports). */
static int reported_at(const gm_report *r, const gm_rule *rule, gm_loc loc) {
  for (size_t i = 0; i < r->findings.len; i++) {
    const gm_finding *f = &r->findings.items[i];
    if (f->rule == rule && f->loc.line == loc.line && f->loc.col == loc.col &&
        strcmp(f->loc.file, loc.file) == 0)
      return 1;
  }
  return 0;
}

void driver_drop_latent(gm_run *run, gm_file_result *r, const gm_parse *parse, gm_func_facts *ff) {
  int w = 0, nlatent = 0;
  gm_fact *latent = gm_xcalloc((size_t)ff->nfacts + 1, sizeof(gm_fact));
  for (int i = 0; i < ff->nfacts; i++) {
    if (is_latent(&ff->facts[i]))
      latent[nlatent++] = ff->facts[i];
    else
      ff->facts[w++] = ff->facts[i];
  }
  ff->nfacts = w;
  if (nlatent && run->opt->explain) {
    gm_report scratch = {0};
    gm_check_ctx ctx = {parse->tu, &r->src, ff->fn, latent, nlatent, &scratch};
    driver_check_function(run, r, &ctx);
    for (size_t i = 0; i < scratch.findings.len; i++) {
      const gm_finding *f = &scratch.findings.items[i];
      if (!reported_at(&r->report, f->rule, f->loc))
        gm_report_suppressed(&r->report, f->rule, "latent", f->loc, f->function,
                             "%s; it holds only on paths that rest on a value gmemlint could not "
                             "keep or on code clang could not type (--latent reports it)",
                             f->message);
    }
    gm_report_clear(&scratch);
  }
  free(latent);
}

void driver_drop_explanations(gm_report *report) {
  size_t w = 0;
  for (size_t i = 0; i < report->notices.len; i++) {
    if (strcmp(report->notices.items[i].kind, "suppressed") == 0)
      gm_notice_free(&report->notices.items[i]);
    else
      report->notices.items[w++] = report->notices.items[i];
  }
  report->notices.len = w;
}
