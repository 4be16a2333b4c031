/* gmemlint: find GPU memory problems in CUDA C/C++ sources. main() picks the command (help,
 * --install-hook, --list-rules, `gmemlint report`, or a lint run); lint() reads as the run's
 * steps, one function each. */
#include "driver/baseline.h"
#include "driver/build_copies.h"
#include "driver/compdb.h"
#include "driver/config.h"
#include "driver/driver.h"
#include "driver/hook.h"
#include "driver/options.h"
#include "driver/read_problems.h"
#include "driver/report_cmd.h"
#include "driver/supervise.h"
#include "findings/output.h"
#include "frontend/nvcc_compat.h"
#include "model/families.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "runtime_view/out_report.h"
#include "support/atomic_file.h"
#include "support/interrupt.h"
#include "support/timing.h"
#include "support/version.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  int printed = gm_supervised_was_printed(i); /* by a run that crashed on a later file */
  if (r->messages_len && !printed)
    fwrite(r->messages, 1, r->messages_len, stderr);
  fflush(stderr);
  driver_add_read_notices(r);
  m->input_errors += r->input_error;
  m->parse_error_files += r->parse_errors && !r->input_error;
  m->verify_problems += r->verify_problems;
  if (m->join)
    gm_join_file(m->join, r->path, &r->src, r->cfg ? &r->cfg->thresholds : NULL, &r->report);
  for (size_t k = 0; k < r->report.findings.len; k++)
    mark(m, run->opt, &r->report.findings.items[k]);
  if (run->opt->format == GM_FORMAT_TEXT && !run->opt->verify && !printed) {
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
  gm_supervised_printed(i);
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
    size_t before = t->runs.len;
    int rc = gm_telemetry_load(t, paths[i], err, sizeof err);
    if (rc)
      gm_telemetry_say_views_off(t, before, stderr);
    if (rc == 2)
      fprintf(stderr, GM_PROGRAM ": warning: %s\n", err);
    else if (!rc) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      return 0;
    }
  }
  return 1;
}

/* Help, the manual page, the compatibility header or the version; 0 when none was asked for. */
static int print_information(const gm_options *opt) {
  if (opt->show_help == 1) {
    gm_options_help(stdout);
  } else if (opt->show_help == 2) {
    gm_options_man(stdout);
  } else if (opt->show_help == 3) { /* --dump-nvcc-compat: bench/ gives clang the same header */
    fputs(gm_nvcc_compat_text, stdout);
  } else if (opt->show_version) {
    CXString v = clang_getClangVersion();
    printf("gmemlint %s (%s)\n", GM_VERSION, clang_getCString(v));
    clang_disposeString(v);
  } else {
    return 0;
  }
  return 1;
}

static int lint(gm_options *opt);

/* Where an output will land: the path with its directory resolved (the file itself may not exist
 * yet), so that `-o out.txt --export-fixes ./out.txt` compare equal; NULL when the directory
 * cannot be resolved (the write will fail and say so). */
static char *output_landing(const char *path) {
  char dir[PATH_MAX];
  const char *slash = strrchr(path, '/');
  char *parent = gm_directory_of(path);
  char *landing =
      realpath(parent, dir) ? gm_xasprintf("%s/%s", dir, slash ? slash + 1 : path) : NULL;
  free(parent);
  return landing;
}

/* Two outputs on one file: the second would replace the first's text (`-o x --export-fixes x`). */
static int same_output(const char *a, const char *b) {
  if (gm_same_regular_file(a, b))
    return 1;
  char *la = output_landing(a), *lb = output_landing(b);
  int same = la && lb && strcmp(la, lb) == 0;
  free(la);
  free(lb);
  return same;
}

/* An output that names one of the command line's inputs would replace what the run reads
 * (`-o a.cu a.cu`): refused before any work. --write-baseline may update the --baseline it read.
 * Two outputs that name one file are refused too. */
static int outputs_spare_inputs(const gm_options *opt) {
  const struct {
    const char *option, *path;
  } outputs[] = {{"-o", opt->output},
                 {"--export-fixes", opt->export_fixes},
                 {"--write-baseline", opt->write_baseline},
                 {"--html", opt->html},
                 {"--trace", opt->trace}};
  GM_VEC(const char *) inputs = {0};
  for (size_t i = 0; i < opt->files.len; i++)
    GM_PUSH(inputs, opt->files.items[i]);
  for (size_t i = 0; i < opt->telemetry.len; i++)
    GM_PUSH(inputs, opt->telemetry.items[i]);
  if (opt->config)
    GM_PUSH(inputs, opt->config);
  if (opt->baseline)
    GM_PUSH(inputs, opt->baseline);
  int ok = 1;
  for (size_t k = 0; k < sizeof outputs / sizeof *outputs && ok; k++) {
    const char *out = outputs[k].path;
    for (size_t i = 0; out && i < inputs.len && ok; i++) {
      const char *in = inputs.items[i];
      if (in == opt->baseline && out == opt->write_baseline)
        continue;
      if (gm_same_regular_file(out, in)) {
        fprintf(stderr, GM_PROGRAM ": error: %s %s would overwrite the input %s\n",
                outputs[k].option, out, in);
        ok = 0;
      }
    }
  }
  size_t n = sizeof outputs / sizeof *outputs;
  for (size_t k = 0; k < n && ok; k++)
    for (size_t m = k + 1; outputs[k].path && m < n && ok; m++)
      if (outputs[m].path && same_output(outputs[k].path, outputs[m].path)) {
        fprintf(stderr,
                GM_PROGRAM ": error: %s %s and %s %s name one file: each output needs its own\n",
                outputs[k].option, outputs[k].path, outputs[m].option, outputs[m].path);
        ok = 0;
      }
  GM_VEC_FREE(inputs);
  return ok;
}

/* The command the options ask for, first match wins; its exit status. */
static int run_command(gm_options *opt, int argc, char **argv) {
  if (print_information(opt))
    return GM_EXIT_CLEAN;
  if (opt->install_hook)
    return gm_install_hook(opt, argc, argv);
  if (opt->list_rules)
    return list_rules();
  if (!outputs_spare_inputs(opt))
    return GM_EXIT_USAGE;
  if (opt->report_command)
    return gm_report_command(opt);
  return gm_supervise(opt, lint);
}

int main(int argc, char **argv) {
  gm_interrupt_install(); /* an interrupted run leaves no temporary behind */
  /* Under `ulimit -f` a preamble or cache entry past the limit would kill the run; ignored, the
   * write fails with EFBIG and takes the same way as a full disk. */
  signal(SIGXFSZ, SIG_IGN);
  /* libclang parses on a thread of its own with an 8 MB stack, which a few thousand nested
   * parentheses overflow; read at each parse, this makes it parse on the caller's thread, a
   * worker with gmemlint's larger stack. Set before any thread can read the environment. */
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  gm_options opt;
  int rc = gm_options_parse(&opt, argc, argv);
  if (!rc)
    rc = run_command(&opt, argc, argv);
  gm_options_free(&opt);
  return rc;
}

/* Everything one lint run holds; lint_free releases whatever was set. */
typedef struct lint_run {
  gm_options *opt; /* its file list grows by the compile database's files */
  gm_run run;
  main_ctx m;
  gm_telemetry telemetry;
  gm_atomic_file output;    /* with -o FILE */
  gm_report runtime;        /* the runtime-only findings (GM1xx) */
  gm_output_file *rt_files; /* one per reported runtime-only finding */
  size_t nruntime;
  gm_output_file *files; /* for the whole-run printers: every input, then rt_files */
  size_t nout;
  GM_VEC(const char *) errors; /* the inputs' first errors, for SARIF's notifications */
  int write_failed;
} lint_run;

static int check_lint_options(const gm_options *opt) {
  if (opt->only_confirmed && !opt->telemetry.len) {
    fprintf(stderr, GM_PROGRAM ": error: --only-confirmed needs --telemetry (nothing is confirmed "
                               "without runtime evidence)\n");
    return 0;
  }
  if (opt->verify && opt->telemetry.len) {
    fprintf(stderr,
            GM_PROGRAM ": error: --verify checks the static pass alone; drop --telemetry\n");
    return 0;
  }
  return 1;
}

/* -p DIR: the database's flags, and its files when none are named. */
static int open_compdb(gm_run *run, gm_options *opt) {
  char err[1024];
  run->db = gm_compdb_open(opt->compdb_dir, err, sizeof err);
  if (!run->db) {
    fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
    return 0;
  }
  run->copies = gm_build_copies_new(run->db);
  const char *script;
  int alone;
  size_t findcuda = gm_compdb_findcuda(run->db, &script, &alone);
  if (findcuda) /* files the build compiles that the database left out */
    fprintf(stderr,
            GM_PROGRAM ": note: %s %s %zu CUDA file%s that CMake's FindCUDA module compiles "
                       "(cuda_add_executable, cuda_add_library): read from the nvcc script%s it "
                       "generates (%s%s)\n",
            gm_compdb_path(run->db), alone ? "does not exist; its build has" : "lacks", findcuda,
            findcuda == 1 ? "" : "s", findcuda == 1 ? "" : "s", findcuda == 1 ? "" : "e.g. ",
            script);
  char **db_files = NULL;
  size_t moved, n = gm_compdb_files(run->db, &db_files),
                missing = gm_compdb_missing(run->db, &moved);
  /* said once for the database, not once a file: most of its sources gone from where it says
   * they are, build directory included, means another machine or checkout */
  if (moved && moved > n)
    fprintf(stderr,
            GM_PROGRAM ": warning: %s: %zu of %zu files it names do not exist here; was it "
                       "generated on another machine or in another checkout?\n",
            gm_compdb_path(run->db), missing, missing + n);
  else if (missing && !opt->files.len)
    fprintf(stderr,
            GM_PROGRAM ": warning: %s: %zu of %zu files it names do not exist here%s; analysing "
                       "the %zu that do\n",
            gm_compdb_path(run->db), missing, missing + n,
            moved ? "" : " (sources generated by the build?)", n);
  if (opt->files.len)
    return 1;
  if (!n && missing) {
    fprintf(stderr, GM_PROGRAM ": error: %s: no file it names exists here; nothing to analyse\n",
            gm_compdb_path(run->db));
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    GM_PUSH(opt->files, db_files[i]);
  return 1;
}

/* A file named twice (`a.cu a.cu`, `a.cu ./a.cu`, a glob that overlaps) is analysed once, under
 * its first name: twice would print every finding twice. */
static void drop_repeated_files(gm_options *opt) {
  size_t n = opt->files.len;
  char **keys = gm_xcalloc(n + 1, sizeof *keys);
  for (size_t i = 0; i < n; i++) {
    char *real = realpath(opt->files.items[i], NULL);
    keys[i] = real ? real : gm_xstrdup(opt->files.items[i]);
  }
  char *repeated = gm_mark_repeats(keys, n);
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (!repeated[i])
      opt->files.items[kept++] = opt->files.items[i];
    free(keys[i]);
  }
  opt->files.len = kept;
  free(repeated);
  free(keys);
}

/* The telemetry to join (--telemetry) and the findings to leave out (--baseline). */
static int open_evidence(lint_run *l) {
  const gm_options *opt = l->opt;
  if (opt->telemetry.len) {
    if (!load_telemetry(&l->telemetry, opt->telemetry.items, opt->telemetry.len))
      return 0;
    l->m.join = gm_join_new(&l->telemetry, &gm_rule_registry);
  }
  if (opt->baseline) {
    char err[1024];
    l->m.baseline = gm_baseline_load(opt->baseline, err, sizeof err);
    if (!l->m.baseline) {
      fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
      return 0;
    }
  }
  return 1;
}

/* Standard output, or -o FILE (written whole or not at all); colour only on a terminal. */
static int open_output(lint_run *l) {
  const gm_options *opt = l->opt;
  l->m.out = stdout;
  if (opt->output) {
    l->m.out = gm_atomic_open(&l->output, opt->output, "w");
    if (!l->m.out) {
      fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt->output, strerror(errno));
      return 0;
    }
  }
  const char *no_color = getenv("NO_COLOR");
  l->m.color =
      opt->format == GM_FORMAT_TEXT &&
      (opt->color == GM_COLOR_ALWAYS ||
       (opt->color == GM_COLOR_AUTO && isatty(fileno(l->m.out)) && !(no_color && *no_color)));
  return 1;
}

/* Every file through the pipeline; on_file_done prints each as it is done. */
static void analyse(lint_run *l) {
  gm_run *run = &l->run;
  run->nfiles = l->opt->files.len;
  run->results = gm_xcalloc(run->nfiles, sizeof(gm_file_result));
  for (size_t i = 0; i < run->nfiles; i++)
    run->results[i].path = l->opt->files.items[i];
  gm_run_all(run, on_file_done, &l->m);
}

/* The runtime-only findings (GM1xx), after every static finding has its verdict: one output
 * entry each, with its source when that is an input. */
static void add_runtime_findings(lint_run *l) {
  const gm_options *opt = l->opt;
  if (l->m.join) {
    uint64_t selected = 0;
    for (size_t k = 0; k < gm_rule_count; k++)
      if (gm_rule_selected(&l->run, k))
        selected |= 1ULL << k;
    gm_join_runtime(l->m.join, selected, &l->runtime);
    for (size_t k = 0; k < l->runtime.findings.len; k++) {
      l->runtime.findings.items[k].error = opt->werror;
      mark(&l->m, opt, &l->runtime.findings.items[k]);
    }
  }
  l->rt_files = gm_xcalloc(l->runtime.findings.len + 1, sizeof(gm_output_file));
  for (size_t k = 0; k < l->runtime.findings.len; k++) {
    const gm_finding *f = &l->runtime.findings.items[k];
    if (reported(f))
      l->rt_files[l->nruntime++] = (gm_output_file){.path = f->loc.file,
                                                    .src = gm_join_source(l->m.join, f->loc.file),
                                                    .findings = f,
                                                    .nfindings = 1};
  }
  if (opt->format == GM_FORMAT_TEXT && !opt->verify) {
    for (size_t k = 0; k < l->nruntime; k++)
      gm_print_text(l->m.out, &l->rt_files[k], l->m.color);
    fflush(l->m.out);
  }
}

/* The reported findings of every input, then the runtime-only ones, for the whole-run printers. */
static void gather_outputs(lint_run *l) {
  gm_run *run = &l->run;
  l->nout = run->nfiles + l->nruntime;
  l->files = gm_xcalloc(l->nout + 1, sizeof(gm_output_file));
  for (size_t i = 0; i < run->nfiles; i++) {
    gm_file_result *r = &run->results[i];
    gm_finding *shown = gm_xcalloc(r->report.findings.len + 1, sizeof(gm_finding));
    size_t n = 0;
    for (size_t k = 0; k < r->report.findings.len; k++) {
      gm_finding *f = &r->report.findings.items[k];
      if (reported(f))
        shown[n++] = *f;
    }
    l->files[i] = (gm_output_file){
        r->path, &r->src, shown, n, r->report.notices.items, r->report.notices.len};
    if (r->first_error && !r->parse_errors) /* else its parse-errors notice says it */
      GM_PUSH(l->errors, r->first_error);
  }
  for (size_t k = 0; k < l->nruntime; k++)
    l->files[run->nfiles + k] = l->rt_files[k];
}

/* --write-baseline: every finding, including those the old baseline already held. */
static int write_baseline(const lint_run *l) {
  GM_VEC(const gm_finding *) all = {0};
  for (size_t i = 0; i < l->run.nfiles; i++)
    for (size_t k = 0; k < l->run.results[i].report.findings.len; k++)
      GM_PUSH(all, &l->run.results[i].report.findings.items[k]);
  for (size_t k = 0; k < l->runtime.findings.len; k++)
    GM_PUSH(all, &l->runtime.findings.items[k]);
  char err[1024];
  int ok = gm_baseline_write(l->opt->write_baseline, all.items, all.len, err, sizeof err);
  if (!ok)
    fprintf(stderr, GM_PROGRAM ": error: %s\n", err);
  GM_VEC_FREE(all);
  return ok;
}

/* What is printed once every file is done: the cut-short count (text), the whole JSON or SARIF
 * document, the fix-its, the baseline; then -o FILE takes its place. */
static void write_outputs(lint_run *l) {
  const gm_options *opt = l->opt;
  FILE *out = l->m.out;
  if (opt->format == GM_FORMAT_TEXT && !opt->verify) /* counted once, after every finding */
    gm_print_text_cut_short(out, l->files, l->nout, l->m.color);
  gm_analysis_summary summary = driver_analysis_summary(&l->run);
  if (opt->format == GM_FORMAT_JSON && !opt->verify)
    l->write_failed = gm_print_json(out, l->files, l->nout, &summary) != 0;
  else if (opt->format == GM_FORMAT_SARIF && !opt->verify)
    l->write_failed = gm_print_sarif(out, l->files, l->nout, opt->sarif_root, l->errors.items,
                                     l->errors.len, &gm_rule_registry, &summary) != 0;
  if (opt->export_fixes) {
    gm_atomic_file fx;
    int ok = gm_atomic_open(&fx, opt->export_fixes, "w") &&
             gm_atomic_commit(&fx, gm_print_fixes(fx.out, l->files, l->run.nfiles) == 0);
    if (!ok) {
      fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt->export_fixes,
              strerror(errno));
      l->write_failed = 1;
    }
  }
  if (opt->write_baseline && !write_baseline(l))
    l->write_failed = 1;
  if (fflush(out) != 0 || ferror(out))
    l->write_failed = 1;
  if (opt->output && !gm_atomic_commit(&l->output, !l->write_failed)) {
    fprintf(stderr, GM_PROGRAM ": error: %s: cannot write: %s\n", opt->output, strerror(errno));
    l->write_failed = 1;
  }
}

/* A run that could not read all the code is not clean, and its findings may be missing. */
static int exit_status(const lint_run *l) {
  const gm_options *opt = l->opt;
  const main_ctx *m = &l->m;
  return m->input_errors || l->write_failed ? GM_EXIT_USAGE
         : opt->verify                      ? (m->verify_problems ? GM_EXIT_FINDINGS : 0)
         : m->parse_error_files && !opt->allow_parse_errors ? GM_EXIT_PARSE
         : m->findings                                      ? GM_EXIT_FINDINGS
                                                            : GM_EXIT_CLEAN;
}

static void lint_free(lint_run *l) {
  for (size_t i = 0; i < l->run.nfiles; i++) {
    gm_file_result *r = &l->run.results[i];
    if (l->files)
      free((void *)l->files[i].findings);
    gm_report_clear(&r->report);
    gm_source_free(&r->src);
    free(r->messages);
    free(r->first_error);
    free((char *)r->first_parse_error.loc.file);
    free(r->first_parse_error.message);
    for (size_t k = 0; k < r->functions_with_errors.len; k++)
      free(r->functions_with_errors.items[k]);
    GM_VEC_FREE(r->functions_with_errors);
    free(r->imports);
  }
  free(l->files);
  free(l->rt_files);
  gm_report_clear(&l->runtime);
  gm_join_free(l->m.join);
  gm_telemetry_free(&l->telemetry);
  free(l->run.results);
  GM_VEC_FREE(l->errors);
  gm_baseline_free(l->m.baseline);
  gm_build_copies_free(l->run.copies);
  gm_compdb_close(l->run.db);
}

/* A lint run; `opt`'s file list may grow (the compile database's files). */
static int lint(gm_options *opt) {
  if (!check_lint_options(opt))
    return GM_EXIT_USAGE;
  if (opt->time_report)
    gm_timing_enable();
  double run_start = gm_timing_start();
  lint_run l = {.opt = opt};
  l.run.opt = opt;
  if (!gm_run_select_rules(&l.run, opt))
    return GM_EXIT_USAGE;
  (void)gm_table_builtin(); /* parsed once, before the workers share it */
  if (!gm_run_find_toolkit(&l.run, opt))
    return GM_EXIT_USAGE;
  int ok = !opt->compdb_dir || open_compdb(&l.run, opt);
  drop_repeated_files(opt);
  /* telemetry alone is enough: the runtime-only findings (a Python program under gmemrun) */
  if (ok && !opt->files.len && !opt->telemetry.len) {
    fprintf(stderr, GM_PROGRAM ": error: no input files\nTry '" GM_PROGRAM
                               " --help' for more information.\n");
    ok = 0;
  }
  ok = ok && open_evidence(&l) && open_output(&l);
  if (!ok) {
    lint_free(&l);
    return GM_EXIT_USAGE;
  }
  analyse(&l);
  double output_start = gm_timing_start();
  add_runtime_findings(&l);
  gather_outputs(&l);
  write_outputs(&l);
  if (opt->verify && !l.m.input_errors && l.m.verify_problems)
    fprintf(stderr, GM_PROGRAM ": verify: %d problem(s) in %zu file(s)\n", l.m.verify_problems,
            l.run.nfiles);
  /* last, where it is seen: what could not be read, counted once */
  gm_print_read_summary(stderr, &l.run);
  gm_timing_stop(GM_STAGE_OUTPUT, output_start);
  if (opt->time_report)
    gm_timing_print(stderr, gm_timing_start() - run_start, opt->jobs);
  int rc = exit_status(&l);
  lint_free(&l);
  return rc;
}
