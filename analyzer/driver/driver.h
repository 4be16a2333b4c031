/* The driver: runs the pipeline (read, configure, parse, model, flow, rules, suppress,
 * fingerprint) over every input file on a pool of worker threads (pass one); joins the files' unit
 * summaries into one program, analyses again the files that call into other files with those
 * files' summaries (pass two, from the kept model), runs the program-wide checks and --verify,
 * and hands results back in input order. */
#ifndef GM_DRIVER_H
#define GM_DRIVER_H

#include "driver/cache.h"
#include "driver/compdb.h"
#include "driver/options.h"
#include "driver/config.h"
#include "findings/report.h"
#include "program/unit.h"
#include "support/source.h"

#include <stdint.h>

/* Where a file's flags came from with -p (unused: no -p, or the file was not read). */
enum gm_compdb_match { GM_COMPDB_UNUSED, GM_COMPDB_ENTRY, GM_COMPDB_SIMILAR, GM_COMPDB_DEFAULT };

typedef struct gm_file_result {
  const char *path;
  gm_source src;
  gm_report report;
  char *messages; /* diagnostics about the input, for stderr, in order */
  size_t messages_len;
  char *first_error;    /* the first input error, for SARIF notifications */
  int input_error;      /* nothing (or not everything) could be analysed: exit 2 */
  int parsed;           /* went through a parse (--verify checks it) */
  int parse_errors;     /* clang's errors in that parse */
  const gm_config *cfg; /* the .gmemlint in force, once the file was read */
  gm_unit *unit;        /* what the file exports to whole-program analysis, or NULL */
  char *imports;        /* second pass: the other files' summaries its calls use (JSON), or NULL */
  /* second pass: the program its imports come from, and its unit's index there */
  const struct gm_program *program;
  size_t program_self;
  gm_cache_key key;      /* its result-cache key in pass one */
  struct gm_parse *kept; /* pass one's parse, kept for pass two (no second parse), or NULL */
  const gm_str_vec *kept_pch_includes;
  size_t kept_mark; /* where the messages a cache entry replays begin */
  int verify_problems;
  int done;
  /* what could not be read (read_problems.h): clang's first error (loc.file owned), and with -p
   * where the flags came from (gm_compdb_match) */
  gm_related first_parse_error;
  int compdb_match;
  /* a file with parse errors: its functions, and the names of those that hold an error (analysed
   * with what clang could type; malloc'd) */
  int functions;
  gm_str_vec functions_with_errors;
} gm_file_result;

typedef struct gm_run {
  const gm_options *opt;
  gm_compdb *db;
  const char *cuda_path;
  /* the command line's rules: --only (0: not given), --enable (added to the defaults and the
   * config's), --disable (taken out of either) */
  uint64_t cli_only, cli_enabled, cli_disabled;
  int use_pch;
  struct gm_cache *cache; /* NULL: off (cache.h) */
  /* headers the build copied into its tree, traced to their sources (build_copies.h); NULL
   * without a database */
  struct gm_build_copies *copies;
  gm_file_result *results;
  size_t nfiles;
} gm_run;

/* Whether the command line (--enable, --disable) selects rule k (its index in gm_rules). */
int gm_rule_selected(const gm_run *run, size_t k);

/* run_setup.c, for linting and gmemlint report alike: the rules --enable and --disable name
 * (0, with the error said, for an unknown one), and the CUDA toolkit (0, said, when a source
 * needs its headers and they are not there; findings files need none). */
int gm_run_select_rules(gm_run *run, const gm_options *opt);
int gm_run_find_toolkit(gm_run *run, const gm_options *opt);

/* Analyses all files as one program; then calls on_done(run, i, ctx) on the calling thread for
 * i = 0, 1, ... in order. */
void gm_run_all(gm_run *run, void (*on_done)(gm_run *, size_t, void *), void *ctx);

#endif
