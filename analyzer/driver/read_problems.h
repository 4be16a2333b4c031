/* What a run could not read as the build reads it: clang's parse errors and files missing from
 * the compile database. Each file's are a few lines on standard error and notices in JSON and
 * SARIF; the run's are counted once at its end, with the likely cause of the first parse error,
 * so that a run that could not read the code is never silently clean. */
#ifndef GM_READ_PROBLEMS_H
#define GM_READ_PROBLEMS_H

#include "driver/driver.h"
#include "findings/output.h"
#include "frontend/frontend.h"

#include <stdio.h>

/* Records the parse's first error in r and writes the file's warning (unless no function could
 * be analysed, which is an input error already printed, or --verify) and its first clang errors
 * as `note: clang:` lines to msg (--show-parse-errors of them; the rest are counted). */
void driver_report_parse_errors(const gm_run *run, gm_file_result *r, const gm_parse *parse,
                                int nothing_parsed, FILE *msg);

/* Adds the file's notices about what could not be read ("parse-errors", "compdb-similar-entry",
 * "compdb-default-flags") before its other notices. Once per file, after --verify. */
void driver_add_read_notices(gm_file_result *r);

/* The run's summary on err: how many files had no compile-database entry (one line per kind,
 * with an example), then how many had parse errors with the first error and, when it is a
 * header not found, where the include path should come from. Returns the number of files with
 * parse errors. */
size_t gm_print_read_summary(FILE *err, const gm_run *run);

/* The notices of a parse read otherwise than its flags say: with the legacy layer's
 * declarations of removed APIs ("legacy-api"), or with -std=c++17 for CUDA 13's CCCL
 * ("dialect-raised"). */
void driver_add_parse_notices(gm_file_result *r, const gm_parse *parse);

/* What the run analysed and what it could not, for the JSON and SARIF summaries. */
gm_analysis_summary driver_analysis_summary(const gm_run *run);

#endif
