/* Private to the driver: what driver.c and passes.c (whole-program analysis) share. */
#ifndef GM_PASSES_H
#define GM_PASSES_H

#include "driver/driver.h"
#include "driver/progress.h"
#include "frontend/frontend.h"
#include "rules/rules.h"

#include <pthread.h>

/* driver.c */
/* Drops the findings from `first` on that a NOLINT comment suppresses, then puts all in a stable
 * order with their --werror level and fingerprints. */
void driver_settle_findings(gm_run *run, gm_file_result *r, size_t first);
/* Whether rule k runs for a file under configuration cfg. */
int driver_rule_enabled(gm_run *run, const gm_config *cfg, size_t k);
/* Runs the enabled rules' checks on one function's facts (ctx). */
void driver_check_function(gm_run *run, const gm_file_result *r, const gm_check_ctx *ctx);
/* Flow (with other files' summaries when r->imports is set), rules, unit summary, settling. */
void driver_analyse_parse(gm_run *run, gm_file_result *r, const gm_parse *parse);
/* Analyses `files` on the worker threads and returns when all are done. */
void driver_run_pass(gm_run *run, const size_t *files, size_t count, gm_progress *progress);
/* Starts fn(arg) on --jobs threads, at most `work` and at least one; *n: how many. */
pthread_t *driver_start_threads(gm_run *run, size_t work, void *(*fn)(void *), void *arg,
                                size_t *n);
void driver_join_threads(pthread_t *threads, size_t n);
/* Appends messages written to a memory stream after the file's own (takes text). */
void driver_append_messages(gm_file_result *r, char *text, size_t len);

/* passes.c */
/* Pass two: joins the units and analyses again the files that call into other files. */
void driver_second_pass(gm_run *run, gm_progress *progress);
/* The rules' program-wide checks over the joined units; new findings are settled. */
void driver_check_program(gm_run *run);
/* Notes on fn's findings (from `before` on), when fn is a header's, the #include that brings the
 * header into the file analysed. */
void driver_name_includer(const gm_tu *tu, const gm_func *fn, gm_report *rep, size_t before);

#endif
