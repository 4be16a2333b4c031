/* A rule's entry in the rule table: its names and documentation, which the printers list, and
 * its hooks, which the driver and the join call. What the hooks receive is defined by the stages
 * that build it (rules/rules.h: the check contexts; runtime_view/join.h: the judge and runtime
 * contexts); here those are only named, so the findings depend on neither. */
#ifndef GM_RULE_H
#define GM_RULE_H

#include "findings/report.h"

#include <stddef.h>

typedef struct gm_check_ctx gm_check_ctx;     /* rules/rules.h */
typedef struct gm_program_ctx gm_program_ctx; /* rules/rules.h */
typedef struct gm_judge_ctx gm_judge_ctx;     /* runtime_view/join.h */
typedef struct gm_runtime_ctx gm_runtime_ctx; /* runtime_view/join.h */

struct gm_rule {
  const char *id;          /* "GM001": stable, never reused */
  const char *name;        /* "unpaired-allocation" */
  const char *summary;     /* one line */
  const char *description; /* a paragraph: what it flags and why it matters */
  const char *fix;         /* what to do instead */
  /* The static check; NULL for runtime-only rules (GM1xx). */
  void (*check)(const gm_check_ctx *ctx);
  /* The program-wide check (program.h): what only the files together show; may be NULL. */
  void (*check_program)(const gm_program_ctx *ctx);
  /* The verdict on one of this rule's findings from the telemetry (join.h); NULL: the runtime
   * collects no evidence for it. */
  gm_verdict (*judge)(gm_judge_ctx *ctx);
  /* Runtime-only rules: findings from the telemetry alone, after the static pass. */
  void (*runtime)(const gm_runtime_ctx *ctx);
  /* Runs only when asked for: named in --enable or --only (or --enable=all), or in a .gmemlint's
   * [rules] enable. */
  int off_by_default;
  /* Its findings' level, which SARIF states as the rule's default; a finding may still say
   * otherwise (GM001's note on an error path). */
  gm_level level;
};

/* The rules of a run, in order (a rule's index is its bit in the driver's rule sets). The
 * stages below the rules (the SARIF printer, the join) are given it; rules/registry.c holds the
 * one gmemlint uses. */
typedef struct gm_rule_table {
  const gm_rule *const *rules;
  size_t count;
} gm_rule_table;

/* The rule whose id (in any case) or name this is, or NULL. */
const gm_rule *gm_rule_table_find(const gm_rule_table *t, const char *id_or_name);
/* The rule's index in t, or -1 when it is not there. */
int gm_rule_table_index(const gm_rule_table *t, const gm_rule *rule);

#endif
