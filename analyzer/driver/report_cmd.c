/* `gmemlint report [-o FILE] [--html FILE] [--trace FILE] <telemetry...> [sources...]`: reads
 * and merges the telemetry and prints the runtime view as text. With --html or --trace it also
 * runs the static pass on the sources (or reads findings files) and joins them, as
 * `gmemlint --telemetry` does, and writes the page and the trace; without sources they show the
 * runtime-only findings (GM1xx). */
#include "driver/config.h"
#include "driver/driver.h"
#include "driver/read_problems.h"
#include "driver/report_cmd.h"
#include "driver/build_copies.h"
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/out_report.h"
#include "support/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

typedef struct ctx {
  gm_join *join;
  int input_errors;
} ctx;

static void on_file_done(gm_run *run, size_t i, void *arg) {
  ctx *c = arg;
  gm_file_result *r = &run->results[i];
  if (r->messages_len)
    fwrite(r->messages, 1, r->messages_len, stderr);
  fflush(stderr);
  c->input_errors += r->input_error;
  gm_join_file(c->join, r->path, &r->src, r->cfg ? &r->cfg->thresholds : NULL, &r->report);
}

/* Each file is written whole or not at all (support/atomic_file.h). */
static int write_file(const char *path, gm_atomic_writer w, const void *arg) {
  int ok = gm_write_atomically(path, "w", w, arg);
  if (!ok)
    fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", path, strerror(errno));
  return ok;
}

static int html_writer(FILE *out, const void *arg) {
  return gm_write_html(out, arg);
}

typedef struct trace_arg {
  const gm_telemetry *t;
  int top;
  const gm_output_file *files; /* the findings, for the trace's slices */
  size_t nfiles;
} trace_arg;
static int trace_writer(FILE *out, const void *arg) {
  const trace_arg *a = arg;
  return gm_write_trace(out, a->t, a->top, a->files, a->nfiles);
}
static int text_writer(FILE *out, const void *arg) {
  const trace_arg *a = arg;
  gm_print_telemetry_report(out, a->t, a->top);
  return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* What one report reads and builds; report_free releases whatever was set. */
typedef struct report {
  gm_options aopt; /* the options the analysis sees: the sources are its files */
  GM_VEC(const char *) telemetry;
  gm_telemetry t;
  gm_run run;
  ctx c;
  gm_report runtime;     /* the runtime-only findings (GM1xx) */
  gm_output_file *files; /* the findings as the printers take them */
  size_t nfiles;
} report;

/* Telemetry is *.json (findings files aside) and every --telemetry FILE; the rest are sources
 * and findings files, read only to draw the findings (--html, --trace). */
static int sort_inputs(report *r, const gm_options *opt) {
  r->aopt = *opt;
  memset(&r->aopt.files, 0, sizeof r->aopt.files);
  for (size_t i = 0; i < opt->files.len; i++) {
    const char *f = opt->files.items[i];
    if (ends_with(f, ".json") && !gm_is_findings_file(f))
      GM_PUSH(r->telemetry, f);
    else
      GM_PUSH(r->aopt.files, f);
  }
  for (size_t i = 0; i < opt->telemetry.len; i++)
    GM_PUSH(r->telemetry, opt->telemetry.items[i]);
  if (!r->telemetry.len) {
    gm_error("report: no telemetry files (*.json, or --telemetry FILE)\nTry '" GM_PROGRAM
             " --help' for more information.");
    return 0;
  }
  if (opt->format != GM_FORMAT_TEXT) {
    gm_error("report prints text only (--format=json and sarif apply to findings)");
    return 0;
  }
  if (r->aopt.files.len && !opt->html && !opt->trace) {
    gm_error("report: %s is not telemetry (*.json, or --telemetry FILE); sources are read for "
             "--html and --trace only",
             r->aopt.files.items[0]);
    return 0;
  }
  return 1;
}

static int load_telemetry(report *r) {
  char err[1024];
  for (size_t i = 0; i < r->telemetry.len; i++) {
    size_t before = r->t.runs.len;
    int loaded = gm_telemetry_load(&r->t, r->telemetry.items[i], err, sizeof err);
    if (loaded)
      gm_telemetry_say_views_off(&r->t, before, stderr);
    if (loaded == 2)
      fprintf(stderr, GM_PROGRAM ": warning: %s\n", err);
    else if (!loaded) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      return 0;
    }
  }
  return 1;
}

/* The static pass over the sources and findings files, each file joined as it is done. */
static int analyse_sources(report *r, const gm_options *opt) {
  gm_run *run = &r->run;
  char err[1024];
  run->opt = &r->aopt;
  if (!gm_run_select_rules(run, opt))
    return 0;
  r->c.join = gm_join_new(&r->t, &gm_rule_registry);
  if (!r->aopt.files.len)
    return 1;
  (void)gm_table_builtin(); /* parsed once, before the workers share it */
  if (!gm_run_find_toolkit(run, &r->aopt))
    return 0;
  if (opt->compdb_dir && !(run->db = gm_compdb_open(opt->compdb_dir, err, sizeof err))) {
    fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
    return 0;
  }
  run->copies = gm_build_copies_new(run->db);
  run->nfiles = r->aopt.files.len;
  run->results = gm_xcalloc(run->nfiles, sizeof(gm_file_result));
  for (size_t i = 0; i < run->nfiles; i++)
    run->results[i].path = r->aopt.files.items[i];
  gm_run_all(run, on_file_done, &r->c);
  gm_print_read_summary(stderr, run); /* the page's findings may be missing some */
  return 1;
}

/* The runtime-only findings, then every finding as the printers take them: one entry per input,
 * then one per runtime-only finding. */
static void gather_findings(report *r) {
  uint64_t selected = 0;
  for (size_t k = 0; k < gm_rule_count; k++)
    if (gm_rule_selected(&r->run, k))
      selected |= 1ULL << k;
  gm_join_runtime(r->c.join, selected, &r->runtime);
  r->nfiles = r->run.nfiles + r->runtime.findings.len;
  r->files = gm_xcalloc(r->nfiles + 1, sizeof *r->files);
  for (size_t i = 0; i < r->run.nfiles; i++) {
    gm_file_result *f = &r->run.results[i];
    r->files[i] = (gm_output_file){.path = f->path,
                                   .src = &f->src,
                                   .findings = f->report.findings.items,
                                   .nfindings = f->report.findings.len,
                                   .notices = f->report.notices.items,
                                   .nnotices = f->report.notices.len};
  }
  for (size_t k = 0; k < r->runtime.findings.len; k++) {
    const gm_finding *f = &r->runtime.findings.items[k];
    r->files[r->run.nfiles + k] = (gm_output_file){.path = f->loc.file,
                                                   .src = gm_join_source(r->c.join, f->loc.file),
                                                   .findings = f,
                                                   .nfindings = 1};
  }
}

/* The text view goes to -o FILE, else (with no page and no trace) to standard output. */
static int write_views(const report *r, const gm_options *opt) {
  trace_arg ta = {&r->t, opt->top, r->files, r->nfiles};
  int ok = 1;
  if (opt->html) {
    gm_html_input in = {&r->t, r->files, r->nfiles, r->run.nfiles > 0, opt->top};
    ok = write_file(opt->html, html_writer, &in) && ok;
  }
  if (opt->trace)
    ok = write_file(opt->trace, trace_writer, &ta) && ok;
  if (opt->output)
    ok = write_file(opt->output, text_writer, &ta) && ok;
  else if (!opt->html && !opt->trace && text_writer(stdout, &ta) != 0) {
    fprintf(stderr, GM_PROGRAM ": error: standard output: cannot write: %s\n", strerror(errno));
    ok = 0;
  }
  return ok;
}

static void report_free(report *r) {
  free(r->files);
  for (size_t i = 0; i < r->run.nfiles; i++) {
    gm_file_result *f = &r->run.results[i];
    gm_report_clear(&f->report);
    gm_source_free(&f->src);
    free(f->messages);
    free(f->first_error);
    free((char *)f->first_parse_error.loc.file);
    free(f->first_parse_error.message);
    free(f->imports);
  }
  free(r->run.results);
  gm_report_clear(&r->runtime);
  gm_join_free(r->c.join);
  gm_telemetry_free(&r->t);
  gm_build_copies_free(r->run.copies);
  gm_compdb_close(r->run.db);
  GM_VEC_FREE(r->telemetry);
  GM_VEC_FREE(r->aopt.files);
}

int gm_report_command(const gm_options *opt) {
  report r = {0};
  int draw = opt->html || opt->trace; /* the text view alone reads no sources and joins nothing */
  int ok = sort_inputs(&r, opt) && load_telemetry(&r) && (!draw || analyse_sources(&r, opt));
  if (ok) {
    if (draw)
      gather_findings(&r);
    ok = write_views(&r, opt) && !r.c.input_errors;
  }
  report_free(&r);
  return ok ? GM_EXIT_CLEAN : GM_EXIT_USAGE;
}
