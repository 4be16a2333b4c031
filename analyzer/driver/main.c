/* gmemlint: find GPU memory problems in CUDA C/C++ sources. */
#include "driver/baseline.h"
#include "driver/compdb.h"
#include "driver/config.h"
#include "driver/driver.h"
#include "driver/hook.h"
#include "driver/options.h"
#include "driver/read_problems.h"
#include "driver/report_cmd.h"
#include "findings/output.h"
#include "frontend/nvcc_compat.h"
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/out_report.h"
#include "support/timing.h"
#include "support/version.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct main_ctx {
  FILE *out;
  int color;
  gm_baseline *baseline;
  gm_join *join; /* with --telemetry */
  size_t findings;
  int input_errors;
  int parse_error_files; /* parsed in part: exit 3 unless --allow-parse-errors */
  int verify_problems;
} main_ctx;

/* Whether a finding is printed and counted: not in the --baseline, not filtered out by
 * --only-confirmed. */
static int reported(const gm_finding *f) {
  return !f->baselined && !f->filtered;
}

static void mark(main_ctx *m, const gm_options *opt, gm_finding *f) {
  f->baselined = m->baseline && gm_baseline_contains(m->baseline, f);
  f->filtered = opt->only_confirmed && f->verdict != GM_VERDICT_CONFIRMED;
  m->findings += reported(f);
}

static void on_file_done(gm_run *run, size_t i, void *arg) {
  double start = gm_timing_start();
  main_ctx *m = arg;
  gm_file_result *r = &run->results[i];
  if (r->messages_len)
    fwrite(r->messages, 1, r->messages_len, stderr);
  fflush(stderr);
  driver_add_read_notices(r);
  m->input_errors += r->input_error;
  m->parse_error_files += r->parse_errors && !r->input_error;
  m->verify_problems += r->verify_problems;
  if (m->join)
    gm_join_file(m->join, r->path, &r->src, &r->report);
  for (size_t k = 0; k < r->report.findings.len; k++)
    mark(m, run->opt, &r->report.findings.items[k]);
  if (run->opt->format == GM_FORMAT_TEXT && !run->opt->verify) {
    /* print the reported ones only */
    gm_finding *shown = gm_xcalloc(r->report.findings.len + 1, sizeof(gm_finding));
    size_t n = 0;
    for (size_t k = 0; k < r->report.findings.len; k++)
      if (reported(&r->report.findings.items[k]))
        shown[n++] = r->report.findings.items[k];
    gm_output_file of = {
        r->path, &r->src, shown, n, r->report.notices.items, r->report.notices.len};
    gm_print_text(m->out, &of, m->color);
    fflush(m->out);
    free(shown);
  }
  gm_timing_stop(GM_STAGE_OUTPUT, start);
}

static int list_rules(void) {
  int width = 0; /* names in one column, however long the longest */
  for (size_t i = 0; i < gm_rule_count; i++)
    if ((int)strlen(gm_rules[i]->name) > width)
      width = (int)strlen(gm_rules[i]->name);
  for (size_t i = 0; i < gm_rule_count; i++)
    printf("%s  %-*s %s\n", gm_rules[i]->id, width, gm_rules[i]->name, gm_rules[i]->summary);
  return GM_EXIT_CLEAN;
}

/* Reads every telemetry file into t; on a bad one prints the error and returns 0. */
static int load_telemetry(gm_telemetry *t, const char *const *paths, size_t n) {
  char err[1024];
  for (size_t i = 0; i < n; i++) {
    int rc = gm_telemetry_load(t, paths[i], err, sizeof err);
    if (rc == 2)
      fprintf(stderr, GM_PROGRAM ": warning: %s\n", err);
    else if (!rc) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      return 0;
    }
  }
  return 1;
}

/* `gmemlint report <telemetry...>`: the runtime view alone. */
static int report_command(const gm_options *opt) {
  if (!opt->files.len && !opt->telemetry.len) {
    fprintf(stderr, GM_PROGRAM ": error: report: no telemetry files\nTry '" GM_PROGRAM
                               " --help' for more information.\n");
    return GM_EXIT_USAGE;
  }
  if (opt->format != GM_FORMAT_TEXT) {
    fprintf(stderr, GM_PROGRAM ": error: report prints text only (--format=json and sarif "
                               "apply to findings)\n");
    return GM_EXIT_USAGE;
  }
  if (opt->html || opt->trace) /* the page and the trace may also read sources */
    return gm_report_command(opt);
  gm_telemetry t = {0};
  int ok = load_telemetry(&t, opt->files.items, opt->files.len) &&
           load_telemetry(&t, opt->telemetry.items, opt->telemetry.len);
  int rc = GM_EXIT_USAGE;
  if (ok) {
    FILE *out = stdout;
    char *tmp = opt->output ? gm_xasprintf("%s.tmp.%d", opt->output, (int)getpid()) : NULL;
    if (tmp && !(out = fopen(tmp, "w"))) {
      fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt->output, strerror(errno));
    } else {
      gm_print_telemetry_report(out, &t, opt->top);
      int failed = fflush(out) != 0 || ferror(out);
      if (tmp)
        failed = fclose(out) != 0 || failed || rename(tmp, opt->output) != 0;
      if (failed) {
        fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n",
                opt->output ? opt->output : "standard output", strerror(errno));
        if (tmp)
          remove(tmp);
      }
      rc = failed ? GM_EXIT_USAGE : GM_EXIT_CLEAN;
    }
    free(tmp);
  }
  gm_telemetry_free(&t);
  return rc;
}

static const char *find_cuda(const gm_options *opt, int *explicit_path) {
  const char *env = getenv("CUDA_PATH");
  *explicit_path = opt->cuda_path || (env && *env);
  if (opt->cuda_path)
    return opt->cuda_path;
  if (env && *env)
    return env;
  return "/usr/local/cuda";
}

static int lint(gm_options *popt);

int main(int argc, char **argv) {
  gm_options opt;
  int rc = gm_options_parse(&opt, argc, argv);
  if (!rc && opt.install_hook && !opt.show_help && !opt.show_version)
    rc = gm_install_hook(&opt, argc, argv);
  else if (!rc)
    rc = lint(&opt);
  gm_options_free(&opt);
  return rc;
}

/* Everything after option parsing; `popt` gets back the options (whose file list may grow). */
static int lint(gm_options *popt) {
  gm_options opt = *popt;
  if (opt.show_help == 1) {
    gm_options_help(stdout);
    return GM_EXIT_CLEAN;
  }
  if (opt.show_help == 2) {
    gm_options_man(stdout);
    return GM_EXIT_CLEAN;
  }
  if (opt.show_help == 3) { /* --dump-nvcc-compat: bench/ gives clang the same header */
    fputs(gm_nvcc_compat_text, stdout);
    return GM_EXIT_CLEAN;
  }
  if (opt.show_version) {
    CXString v = clang_getClangVersion();
    printf("gmemlint %s (%s)\n", GM_VERSION, clang_getCString(v));
    clang_disposeString(v);
    return GM_EXIT_CLEAN;
  }
  if (opt.list_rules)
    return list_rules();
  if (opt.report_command)
    return report_command(&opt);
  if (opt.only_confirmed && !opt.telemetry.len) {
    fprintf(stderr, GM_PROGRAM ": error: --only-confirmed needs --telemetry (nothing is confirmed "
                               "without runtime evidence)\n");
    return GM_EXIT_USAGE;
  }
  if (opt.verify && opt.telemetry.len) {
    fprintf(stderr,
            GM_PROGRAM ": error: --verify checks the static pass alone; drop --telemetry\n");
    return GM_EXIT_USAGE;
  }

  if (opt.time_report)
    gm_timing_enable();
  double run_start = gm_timing_start();
  gm_run run = {0};
  run.opt = &opt;
  char bad[128];
  for (size_t i = 0; i < opt.enable.len; i++)
    if (!gm_rules_parse_list(opt.enable.items[i], &run.cli_enabled, bad, sizeof bad)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --enable (see --list-rules)\n",
              bad);
      return GM_EXIT_USAGE;
    }
  for (size_t i = 0; i < opt.disable.len; i++)
    if (!gm_rules_parse_list(opt.disable.items[i], &run.cli_disabled, bad, sizeof bad)) {
      fprintf(stderr, GM_PROGRAM ": error: unknown rule '%s' in --disable (see --list-rules)\n",
              bad);
      return GM_EXIT_USAGE;
    }
  (void)gm_table_builtin(); /* parsed once, before the workers share it */

  int explicit_cuda;
  run.cuda_path = find_cuda(&opt, &explicit_cuda);
  char *probe = gm_xasprintf("%s/include/cuda_runtime.h", run.cuda_path);
  struct stat st;
  /* findings files (*.gmemlint.json) need no toolkit: only sources are parsed */
  int sources = !opt.files.len && opt.compdb_dir;
  for (size_t i = 0; i < opt.files.len && !sources; i++)
    sources = !gm_is_findings_file(opt.files.items[i]);
  if (sources && stat(probe, &st) != 0) {
    fprintf(stderr,
            GM_PROGRAM ": error: no CUDA toolkit at '%s' (%s not found); set --cuda-path or "
                       "CUDA_PATH\n",
            run.cuda_path, probe);
    free(probe);
    return GM_EXIT_USAGE;
  }
  free(probe);

  char err[1024];
  char **db_files = NULL;
  if (opt.compdb_dir) {
    run.db = gm_compdb_open(opt.compdb_dir, err, sizeof err);
    if (!run.db) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      return GM_EXIT_USAGE;
    }
    size_t moved, n = gm_compdb_files(run.db, &db_files),
                  missing = gm_compdb_missing(run.db, &moved);
    /* said once for the database, not once a file: most of its sources gone from where it says
     * they are, build directory included, means another machine or checkout */
    if (moved && moved > n)
      fprintf(stderr,
              GM_PROGRAM ": warning: %s: %zu of %zu files it names do not exist here; was it "
                         "generated on another machine or in another checkout?\n",
              gm_compdb_path(run.db), missing, missing + n);
    else if (missing && !opt.files.len)
      fprintf(stderr,
              GM_PROGRAM ": warning: %s: %zu of %zu files it names do not exist here%s; analysing "
                         "the %zu that do\n",
              gm_compdb_path(run.db), missing, missing + n,
              moved ? "" : " (sources generated by the build?)", n);
    if (!opt.files.len) {
      if (!n && missing) {
        fprintf(stderr,
                GM_PROGRAM ": error: %s: no file it names exists here; nothing to analyse\n",
                gm_compdb_path(run.db));
        gm_compdb_close(run.db);
        return GM_EXIT_USAGE;
      }
      for (size_t i = 0; i < n; i++)
        GM_PUSH(opt.files, db_files[i]);
      *popt = opt;
    }
  }
  /* telemetry alone is enough: the runtime-only findings (a Python program under gmemrun) */
  if (!opt.files.len && !opt.telemetry.len) {
    fprintf(stderr, GM_PROGRAM ": error: no input files\nTry '" GM_PROGRAM
                               " --help' for more information.\n");
    gm_compdb_close(run.db);
    return GM_EXIT_USAGE;
  }

  main_ctx m = {0};
  gm_telemetry telemetry = {0};
  if (opt.telemetry.len) {
    if (!load_telemetry(&telemetry, opt.telemetry.items, opt.telemetry.len)) {
      gm_telemetry_free(&telemetry);
      gm_compdb_close(run.db);
      *popt = opt;
      return GM_EXIT_USAGE;
    }
    m.join = gm_join_new(&telemetry, &gm_rule_registry);
  }
  if (opt.baseline) {
    m.baseline = gm_baseline_load(opt.baseline, err, sizeof err);
    if (!m.baseline) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      gm_compdb_close(run.db);
      *popt = opt;
      return GM_EXIT_USAGE;
    }
  }
  /* Output goes to a temporary file renamed into place, so a failed run never leaves half. */
  char *tmp_out = NULL;
  m.out = stdout;
  if (opt.output) {
    tmp_out = gm_xasprintf("%s.tmp.%d", opt.output, (int)getpid());
    m.out = fopen(tmp_out, "w");
    if (!m.out) {
      fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt.output, strerror(errno));
      free(tmp_out);
      gm_baseline_free(m.baseline);
      gm_compdb_close(run.db);
      *popt = opt;
      return GM_EXIT_USAGE;
    }
  }
  const char *no_color = getenv("NO_COLOR");
  m.color = opt.format == GM_FORMAT_TEXT &&
            (opt.color == GM_COLOR_ALWAYS ||
             (opt.color == GM_COLOR_AUTO && isatty(fileno(m.out)) && !(no_color && *no_color)));

  run.nfiles = opt.files.len;
  run.results = gm_xcalloc(run.nfiles, sizeof(gm_file_result));
  for (size_t i = 0; i < run.nfiles; i++)
    run.results[i].path = opt.files.items[i];
  gm_run_all(&run, on_file_done, &m);
  double output_start = gm_timing_start();

  /* runtime-only findings (GM1xx), after every static finding has its verdict */
  gm_report runtime = {0};
  if (m.join) {
    uint64_t selected = 0;
    for (size_t k = 0; k < gm_rule_count; k++)
      if (gm_rule_selected(&run, k))
        selected |= 1ULL << k;
    gm_join_runtime(m.join, selected, &runtime);
    for (size_t k = 0; k < runtime.findings.len; k++) {
      runtime.findings.items[k].error = opt.werror;
      mark(&m, &opt, &runtime.findings.items[k]);
    }
  }
  /* one output entry per runtime finding, with its source when it is an input */
  size_t nruntime = 0;
  gm_output_file *rt_files = gm_xcalloc(runtime.findings.len + 1, sizeof(gm_output_file));
  for (size_t k = 0; k < runtime.findings.len; k++) {
    const gm_finding *f = &runtime.findings.items[k];
    if (reported(f))
      rt_files[nruntime++] = (gm_output_file){.path = f->loc.file,
                                              .src = gm_join_source(m.join, f->loc.file),
                                              .findings = f,
                                              .nfindings = 1};
  }
  if (opt.format == GM_FORMAT_TEXT && !opt.verify) {
    for (size_t k = 0; k < nruntime; k++)
      gm_print_text(m.out, &rt_files[k], m.color);
    fflush(m.out);
  }

  /* gather for the whole-run printers and the baseline writer */
  size_t nout = run.nfiles + nruntime;
  gm_output_file *files = gm_xcalloc(nout + 1, sizeof(gm_output_file));
  GM_VEC(const gm_finding *) all = {0};
  GM_VEC(const char *) errors = {0};
  for (size_t i = 0; i < run.nfiles; i++) {
    gm_file_result *r = &run.results[i];
    gm_finding *shown = gm_xcalloc(r->report.findings.len + 1, sizeof(gm_finding));
    size_t n = 0;
    for (size_t k = 0; k < r->report.findings.len; k++) {
      gm_finding *f = &r->report.findings.items[k];
      if (reported(f))
        shown[n++] = *f;
    }
    files[i] = (gm_output_file){
        r->path, &r->src, shown, n, r->report.notices.items, r->report.notices.len};
    if (r->first_error && !r->parse_errors) /* else its parse-errors notice says it */
      GM_PUSH(errors, r->first_error);
  }
  for (size_t k = 0; k < nruntime; k++)
    files[run.nfiles + k] = rt_files[k];
  int write_failed = 0;
  if (opt.format == GM_FORMAT_TEXT && !opt.verify) /* counted once, after every finding */
    gm_print_text_cut_short(m.out, files, nout, m.color);
  if (opt.format == GM_FORMAT_JSON && !opt.verify)
    write_failed = gm_print_json(m.out, files, nout) != 0;
  else if (opt.format == GM_FORMAT_SARIF && !opt.verify)
    write_failed = gm_print_sarif(m.out, files, nout, opt.sarif_root, errors.items, errors.len,
                                  &gm_rule_registry) != 0;
  if (opt.export_fixes) {
    char *tmp = gm_xasprintf("%s.tmp.%d", opt.export_fixes, (int)getpid());
    FILE *fx = fopen(tmp, "w");
    int ok = fx && gm_print_fixes(fx, files, run.nfiles) == 0;
    ok = fx && fclose(fx) == 0 && ok && rename(tmp, opt.export_fixes) == 0;
    if (!ok) {
      fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt.export_fixes,
              strerror(errno));
      remove(tmp);
      write_failed = 1;
    }
    free(tmp);
  }
  if (opt.write_baseline) {
    /* every finding, including those the old baseline already held */
    for (size_t i = 0; i < run.nfiles; i++)
      for (size_t k = 0; k < run.results[i].report.findings.len; k++)
        GM_PUSH(all, &run.results[i].report.findings.items[k]);
    for (size_t k = 0; k < runtime.findings.len; k++)
      GM_PUSH(all, &runtime.findings.items[k]);
    if (!gm_baseline_write(opt.write_baseline, all.items, all.len, err, sizeof err)) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      write_failed = 1;
    }
  }
  if (fflush(m.out) != 0 || ferror(m.out))
    write_failed = 1;
  if (opt.output) {
    if (fclose(m.out) != 0 || write_failed || rename(tmp_out, opt.output) != 0) {
      fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt.output, strerror(errno));
      remove(tmp_out);
      write_failed = 1;
    }
    free(tmp_out);
  }
  if (opt.verify && !m.input_errors) {
    if (m.verify_problems)
      fprintf(stderr, GM_PROGRAM ": verify: %d problem(s) in %zu file(s)\n", m.verify_problems,
              run.nfiles);
  }
  /* last, where it is seen: what could not be read, counted once */
  gm_print_read_summary(stderr, &run);
  gm_timing_stop(GM_STAGE_OUTPUT, output_start);
  if (opt.time_report)
    gm_timing_print(stderr, gm_timing_start() - run_start, opt.jobs);
  /* a run that could not read all the code is not clean, and its findings may be missing */
  int exit_code = m.input_errors || write_failed ? GM_EXIT_USAGE
                  : opt.verify                   ? (m.verify_problems ? GM_EXIT_FINDINGS : 0)
                  : m.parse_error_files && !opt.allow_parse_errors ? GM_EXIT_PARSE
                  : m.findings                                     ? GM_EXIT_FINDINGS
                                                                   : GM_EXIT_CLEAN;
  for (size_t i = 0; i < run.nfiles; i++) {
    free((void *)files[i].findings);
    gm_report_clear(&run.results[i].report);
    gm_source_free(&run.results[i].src);
    free(run.results[i].messages);
    free(run.results[i].first_error);
    free((char *)run.results[i].first_parse_error.loc.file);
    free(run.results[i].first_parse_error.message);
    free(run.results[i].imports);
  }
  free(files);
  free(rt_files);
  gm_report_clear(&runtime);
  gm_join_free(m.join);
  gm_telemetry_free(&telemetry);
  free(run.results);
  GM_VEC_FREE(all);
  GM_VEC_FREE(errors);
  gm_baseline_free(m.baseline);
  gm_compdb_close(run.db);
  *popt = opt;
  return exit_code;
}
