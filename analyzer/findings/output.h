/* Printers: every format prints the same findings; they differ only here. */
#ifndef GM_OUTPUT_H
#define GM_OUTPUT_H

#include "findings/report.h"
#include "findings/rule.h"
#include "support/source.h"

#include <stdio.h>

typedef struct gm_output_file {
  const char *path;
  const gm_source *src;
  const gm_finding *findings;
  size_t nfindings;
  const gm_notice *notices; /* about the analysis (a function cut short); never filtered */
  size_t nnotices;
} gm_output_file;

/* Text, GCC/clang style: file:line:col: warning: message [GM001 name], source line, caret,
 * then notes; a notice is `file:line:col: note: message`, in line order with the findings,
 * except kinds counted once at the end of the run (gm_notice_counted_once). */
void gm_print_text(FILE *out, const gm_output_file *file, int color);
/* The end of text output: the run's cut-short notices counted once, as the first one's note
 * with how many more there are (`... (and 3 more functions cut short; --format=json lists
 * them)`); nothing when there are none. */
void gm_print_text_cut_short(FILE *out, const gm_output_file *files, size_t nfiles, int color);

/* What a run analysed and what it lost: the files named (sources and findings files), those
 * analysed (in full or in part), those with parse errors (analysed in part), those not analysed
 * at all (input errors); the functions that hold a parse error (analysed with what clang could
 * type), and the functions whose analysis was cut short. */
typedef struct gm_analysis_summary {
  size_t files, files_analysed, files_with_errors, files_not_analysed;
  size_t functions_with_errors, analyses_cut_short;
} gm_analysis_summary;

/* JSON and SARIF print all files at once. SARIF lists every rule of `rules` (a finding names
 * its rule by index there). */
int gm_print_json(FILE *out, const gm_output_file *files, size_t nfiles,
                  const gm_analysis_summary *summary);
int gm_print_sarif(FILE *out, const gm_output_file *files, size_t nfiles, const char *sarif_root,
                   const char *const *input_errors, size_t ninput_errors,
                   const gm_rule_table *rules, const gm_analysis_summary *summary);
/* The summary as a JSON object (new reference). */
struct json_t *gm_analysis_summary_json(const gm_analysis_summary *s);

/* --export-fixes: clang-tidy's YAML (clang-apply-replacements applies it). */
int gm_print_fixes(FILE *out, const gm_output_file *files, size_t nfiles);

#endif
