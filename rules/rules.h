/* The rule interface: what a rule's checks see (its entry in the table is findings/rule.h), the
 * wording rules share, and the registry: one table (registry.c) lists every rule; each rule
 * lives in its own file. */
#ifndef GM_RULES_H
#define GM_RULES_H

#include "findings/rule.h"
#include "flow/flow.h"
#include "program/program.h"

#include <stddef.h>

/* What a rule's check sees: one function's model and the flow engine's facts for it. */
struct gm_check_ctx {
  const gm_tu *tu;         /* the whole translation unit: kernels, callers */
  const gm_source *source; /* the main file's text, for fix-its */
  const gm_func *fn;
  const gm_fact *facts;
  int nfacts;
  gm_report *report;
};

/* What a rule's program check sees: the summaries of every file in the run, joined (whole-program
 * analysis). A finding goes into the report of the unit that holds its location; report_for
 * returns NULL where the rule is off for that file. */
struct gm_program_ctx {
  const gm_program *program;
  gm_report *(*report_for)(void *arg, size_t unit, const gm_rule *rule);
  /* The thresholds of a unit's file (its .gmemlint's); NULL: the defaults. */
  const gm_thresholds *(*limits_for)(void *arg, size_t unit);
  void *arg;
};

extern const gm_rule *const gm_rules[];
extern const size_t gm_rule_count;
/* gm_rules as the table the SARIF printer and the join are given. */
extern const gm_rule_table gm_rule_registry;

const gm_rule *gm_rule_find(const char *id_or_name);

/* Shared wording for memory descriptions in messages: "'d_a' (device memory from cudaMalloc)". */
char *gm_describe_allocation(const gm_fact *f);

/* Reports a leak fact as `rule`'s finding: the message and notes GM001 and GM004 share (GM005
 * words its own: where the process ends). */
void gm_report_leak(const gm_check_ctx *ctx, const gm_rule *rule, const gm_fact *f);

/* The runtime verdict on a leak finding (GM001's, GM005's): live at exit or growing per step. */
gm_verdict gm_judge_leak(gm_judge_ctx *c);

/* Reports, as `rule`'s findings, the members that receive memory of a heap (heap = 1) or GPU
 * family and that nothing in the program frees or hands on, while a sibling member of the same
 * struct or class is freed somewhere (a destructor or cleanup that forgot one): GM001, GM004. */
void gm_report_member_leaks(const gm_program_ctx *ctx, const gm_rule *rule, int heap);
/* The same for globals (a per-thread table `static float *d_buf[MAX_GPUS]`): one that nothing
 * frees or hands on, while another global allocated in the same function is freed somewhere. */
void gm_report_global_leaks(const gm_program_ctx *ctx, const gm_rule *rule, int heap);
#endif
