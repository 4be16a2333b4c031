/* `gmemlint report --html FILE --trace FILE <telemetry...> [sources...]`: reads the telemetry,
 * runs the static pass on the sources (or reads findings files) and joins them, as
 * `gmemlint --telemetry` does, and writes the page and the trace. Without sources the page
 * shows the runtime-only findings (GM1xx). */
#include "driver/config.h"
#include "driver/driver.h"
#include "driver/read_problems.h"
#include "driver/report_cmd.h"
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/out_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
  gm_join_file(c->join, r->path, &r->src, &r->report);
}

/* Writes through a temporary file renamed into place, so a failed run leaves no half file. */
typedef int (*writer)(FILE *out, const void *arg);

static int write_atomically(const char *path, writer w, const void *arg) {
  char *tmp = gm_xasprintf("%s.tmp.%d", path, (int)getpid());
  FILE *out = fopen(tmp, "w");
  int ok = out != NULL;
  if (ok) {
    ok = w(out, arg) == 0;
    ok = fclose(out) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
  }
  if (!ok) {
    fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", path, strerror(errno));
    remove(tmp);
  }
  free(tmp);
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

static const char *find_cuda(const gm_options *opt) {
  const char *env = getenv("CUDA_PATH");
  return opt->cuda_path ? opt->cuda_path : env && *env ? env : "/usr/local/cuda";
}

int gm_report_command(const gm_options *opt) {
  /* inputs: telemetry (*.json, and --telemetry), findings files (*.gmemlint.json), sources */
  gm_options aopt = *opt; /* the analysis sees the sources as its files */
  memset(&aopt.files, 0, sizeof aopt.files);
  GM_VEC(const char *) telemetry = {0};
  for (size_t i = 0; i < opt->files.len; i++) {
    const char *f = opt->files.items[i];
    if (ends_with(f, ".json") && !gm_is_findings_file(f))
      GM_PUSH(telemetry, f);
    else
      GM_PUSH(aopt.files, f);
  }
  for (size_t i = 0; i < opt->telemetry.len; i++)
    GM_PUSH(telemetry, opt->telemetry.items[i]);
  int rc = GM_EXIT_USAGE;
  gm_telemetry t = {0};
  gm_run run = {0};
  ctx c = {0};
  gm_report runtime = {0};
  gm_output_file *files = NULL;
  if (!telemetry.len) {
    fprintf(stderr, GM_PROGRAM ": error: report: no telemetry files (*.json, or --telemetry "
                               "FILE)\nTry '" GM_PROGRAM " --help' for more information.\n");
    goto done;
  }
  if (aopt.files.len && !opt->html && !opt->trace) {
    fprintf(stderr,
            GM_PROGRAM ": error: report: %s is not telemetry (*.json); sources are read for "
                       "--html and --trace only\n",
            aopt.files.items[0]);
    goto done;
  }
  char err[1024];
  for (size_t i = 0; i < telemetry.len; i++) {
    int loaded = gm_telemetry_load(&t, telemetry.items[i], err, sizeof err);
    if (loaded == 2)
      fprintf(stderr, GM_PROGRAM ": warning: %s\n", err);
    else if (!loaded) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      goto done;
    }
  }

  run.opt = &aopt;
  for (size_t i = 0; i < opt->enable.len; i++)
    if (!gm_rules_parse_list(opt->enable.items[i], &run.cli_enabled, err, sizeof err)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --enable (see --list-rules)\n",
              err);
      goto done;
    }
  for (size_t i = 0; i < opt->disable.len; i++)
    if (!gm_rules_parse_list(opt->disable.items[i], &run.cli_disabled, err, sizeof err)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --disable (see --list-rules)\n",
              err);
      goto done;
    }
  c.join = gm_join_new(&t, &gm_rule_registry);
  if (aopt.files.len) {
    (void)gm_table_builtin(); /* parsed once, before the workers share it */
    run.cuda_path = find_cuda(opt);
    int sources = 0;
    for (size_t i = 0; i < aopt.files.len && !sources; i++)
      sources = !gm_is_findings_file(aopt.files.items[i]);
    char *probe = gm_xasprintf("%s/include/cuda_runtime.h", run.cuda_path);
    struct stat st;
    int have_cuda = stat(probe, &st) == 0;
    free(probe);
    if (sources && !have_cuda) {
      fprintf(stderr,
              GM_PROGRAM ": error: no CUDA toolkit at '%s' (%s/include/cuda_runtime.h not "
                         "found); set --cuda-path or CUDA_PATH\n",
              run.cuda_path, run.cuda_path);
      goto done;
    }
    if (opt->compdb_dir && !(run.db = gm_compdb_open(opt->compdb_dir, err, sizeof err))) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      goto done;
    }
    run.nfiles = aopt.files.len;
    run.results = gm_xcalloc(run.nfiles, sizeof(gm_file_result));
    for (size_t i = 0; i < run.nfiles; i++)
      run.results[i].path = aopt.files.items[i];
    gm_run_all(&run, on_file_done, &c);
    gm_print_read_summary(stderr, &run); /* the page's findings may be missing some */
  }
  uint64_t selected = 0;
  for (size_t k = 0; k < gm_rule_count; k++)
    if (gm_rule_selected(&run, k))
      selected |= 1ULL << k;
  gm_join_runtime(c.join, selected, &runtime);

  /* the findings as the printers take them: one entry per input, then the runtime-only ones */
  size_t nfiles = run.nfiles + runtime.findings.len;
  files = gm_xcalloc(nfiles + 1, sizeof *files);
  for (size_t i = 0; i < run.nfiles; i++) {
    gm_file_result *r = &run.results[i];
    files[i] = (gm_output_file){.path = r->path,
                                .src = &r->src,
                                .findings = r->report.findings.items,
                                .nfindings = r->report.findings.len,
                                .notices = r->report.notices.items,
                                .nnotices = r->report.notices.len};
  }
  for (size_t k = 0; k < runtime.findings.len; k++) {
    const gm_finding *f = &runtime.findings.items[k];
    files[run.nfiles + k] = (gm_output_file){.path = f->loc.file,
                                             .src = gm_join_source(c.join, f->loc.file),
                                             .findings = f,
                                             .nfindings = 1};
  }
  int ok = 1;
  if (opt->html) {
    gm_html_input in = {&t, files, nfiles, run.nfiles > 0, opt->top};
    ok = write_atomically(opt->html, html_writer, &in) && ok;
  }
  trace_arg ta = {&t, opt->top, files, nfiles};
  if (opt->trace)
    ok = write_atomically(opt->trace, trace_writer, &ta) && ok;
  if (opt->output)
    ok = write_atomically(opt->output, text_writer, &ta) && ok;
  rc = ok && !c.input_errors ? GM_EXIT_CLEAN : GM_EXIT_USAGE;

done:
  free(files);
  for (size_t i = 0; i < run.nfiles; i++) {
    gm_report_clear(&run.results[i].report);
    gm_source_free(&run.results[i].src);
    free(run.results[i].messages);
    free(run.results[i].first_error);
    free((char *)run.results[i].first_parse_error.loc.file);
    free(run.results[i].first_parse_error.message);
    free(run.results[i].imports);
  }
  free(run.results);
  gm_report_clear(&runtime);
  if (c.join)
    gm_join_free(c.join);
  gm_telemetry_free(&t);
  gm_compdb_close(run.db);
  GM_VEC_FREE(telemetry);
  GM_VEC_FREE(aopt.files);
  return rc;
}
