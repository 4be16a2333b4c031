/* Command-line options: one table (options.c) defines them, and --help and the man page are
 * generated from it. */
#ifndef GM_OPTIONS_H
#define GM_OPTIONS_H

#include "frontend/pch_store.h" /* --pch-store-max's default and variable */
#include "support/util.h"

#include <stdint.h>
#include <stdio.h>

enum gm_format { GM_FORMAT_TEXT, GM_FORMAT_JSON, GM_FORMAT_SARIF };
enum gm_pch { GM_PCH_AUTO, GM_PCH_ALWAYS, GM_PCH_NEVER };
enum gm_color { GM_COLOR_AUTO, GM_COLOR_ALWAYS, GM_COLOR_NEVER };

/* Exit codes, documented in --help and the README. */
enum gm_exit {
  GM_EXIT_CLEAN = 0,    /* no findings */
  GM_EXIT_FINDINGS = 1, /* findings (or --verify mismatches) */
  GM_EXIT_USAGE = 2,    /* bad usage or input that could not be analysed */
  GM_EXIT_PARSE = 3     /* files had parse errors (not with --allow-parse-errors); 2 wins */
};

typedef struct gm_options {
  enum gm_format format;
  enum gm_color color;
  enum gm_pch pch;
  const char *output;
  const char *compdb_dir;
  const char *cuda_path;
  const char *sarif_root;
  const char *baseline;
  const char *write_baseline;
  const char *config;
  const char *export_fixes;
  int jobs;
  int top;                  /* gmemlint report: rows per table */
  const char *html, *trace; /* gmemlint report --html FILE, --trace FILE (out_report.h) */
  int only_confirmed;
  int report_command; /* `gmemlint report <telemetry...>`: files are telemetry */
  int werror;
  int latent;             /* --latent: report latent leaks and frees too */
  int explain;            /* --explain: say which findings were kept from the report and why */
  int allow_parse_errors; /* files with parse errors do not change the exit status */
  int parse_errors_shown; /* clang's errors printed per file; -1: all */
  int verify;
  int no_whole_program; /* --no-whole-program: each file named is a program of its own */
  int no_isolation;     /* --no-isolation: no supervising process (supervise.h) */
  int max_memory_set;   /* --max-memory given: max_memory bytes, 0 for no bound */
  unsigned long long max_memory;
  int max_file_time_set; /* --max-file-time given: max_file_time seconds, 0 for no bound */
  unsigned max_file_time;
  int list_rules;
  int show_help, show_version, dump_model; /* show_help: 1 --help, 2 --man, 3 the compat header */
  int no_cache, cache_stats;               /* the result cache (cache.h) */
  const char *cache_dir;
  int no_pch_store, pch_store_max_set; /* the preamble store (frontend/pch_store.h) */
  uint64_t pch_store_max;
  int progress;            /* the progress line: 0 on a terminal, 1 always, -1 never */
  int time_report;         /* --time-report: stage totals on stderr at the end (timing.h) */
  int install_hook, force; /* --install-hook [--force] (hook.h) */
  GM_VEC(const char *) files;
  GM_VEC(const char *) extra_args;
  GM_VEC(const char *) enable; /* added to the rules that run */
  GM_VEC(const char *) only;   /* the rules that run, alone */
  GM_VEC(const char *) disable;
  GM_VEC(const char *) telemetry;
} gm_options;

/* Returns 0 on success; on misuse prints `gmemlint: error: ...` and returns GM_EXIT_USAGE. */
int gm_options_parse(gm_options *o, int argc, char **argv);
void gm_options_help(FILE *out);
void gm_options_man(FILE *out);
void gm_options_free(gm_options *o);

#endif
