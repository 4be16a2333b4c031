/* gmemlint report --html and --trace: the runtime telemetry drawn for people (one self-contained
 * HTML page, docs/report.md) and for trace viewers (Chrome trace / Perfetto JSON). */
#ifndef GM_OUT_REPORT_H
#define GM_OUT_REPORT_H

#include "findings/output.h"
#include "runtime_view/telemetry.h"

#include <stdio.h>

typedef struct gm_html_input {
  const gm_telemetry *t;
  const gm_output_file *files; /* findings with their verdicts, static and runtime-only */
  size_t nfiles;
  int with_sources; /* sources or findings files were given: the static findings are in */
  int top;          /* sites drawn as their own series; the rest are "other" */
} gm_html_input;

/* Returns 0, or -1 when writing failed. */
int gm_write_html(FILE *out, const gm_html_input *in);
/* files: the findings, as for the HTML page; confirmed ones of rules whose pathology happens
 * over time are drawn as slices over their site's active window. */
int gm_write_trace(FILE *out, const gm_telemetry *t, int top, const gm_output_file *files,
                   size_t nfiles);

/* The sites drawn as series: alloc sites with a peak (and, with with_steps, live bytes recorded
 * at gmem_step()), largest peak first, at most max; returns how many (out holds indexes into
 * t->sites). */
size_t gm_report_top_sites(const gm_telemetry *t, size_t max, int with_steps, size_t *out);

#endif
