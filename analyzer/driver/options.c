#include "driver/options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum opt_id {
  OPT_HELP,
  OPT_VERSION,
  OPT_LIST_RULES,
  OPT_ENABLE,
  OPT_ONLY,
  OPT_DISABLE,
  OPT_COMPDB,
  OPT_CUDA_PATH,
  OPT_FORMAT,
  OPT_OUTPUT,
  OPT_JOBS,
  OPT_WERROR,
  OPT_LATENT,
  OPT_EXPLAIN,
  OPT_VERIFY,
  OPT_NO_WHOLE_PROGRAM,
  OPT_NO_ISOLATION,
  OPT_MAX_MEMORY,
  OPT_MAX_FILE_TIME,
  OPT_SARIF_ROOT,
  OPT_BASELINE,
  OPT_WRITE_BASELINE,
  OPT_CONFIG,
  OPT_COLOR,
  OPT_EXPORT_FIXES,
  OPT_PCH,
  OPT_DUMP_MODEL,
  OPT_DUMP_NVCC_COMPAT,
  OPT_MAN,
  OPT_TELEMETRY,
  OPT_ONLY_CONFIRMED,
  OPT_HTML,
  OPT_TRACE,
  OPT_TOP,
  OPT_NO_CACHE,
  OPT_CACHE_DIR,
  OPT_CACHE_STATS,
  OPT_NO_PCH_STORE,
  OPT_PCH_STORE_MAX,
  OPT_PROGRESS,
  OPT_NO_PROGRESS,
  OPT_TIME_REPORT,
  OPT_INSTALL_HOOK,
  OPT_FORCE,
  OPT_ALLOW_PARSE_ERRORS,
  OPT_SHOW_PARSE_ERRORS
};

typedef struct opt_def {
  enum opt_id id;
  char short_name; /* 0 if none */
  const char *long_name;
  const char *arg; /* NULL: takes no argument */
  const char *help;
  int hidden;
} opt_def;

static const opt_def options[] = {
    {OPT_HELP, 'h', "help", NULL, "print this help and exit", 0},
    {OPT_VERSION, 0, "version", NULL, "print the version and exit", 0},
    {OPT_LIST_RULES, 0, "list-rules", NULL, "list the rules with their ids and exit", 0},
    {OPT_ENABLE, 0, "enable", "IDS",
     "add these rules to those that run, off-by-default ones too (comma-separated ids or "
     "names, or all)",
     0},
    {OPT_ONLY, 0, "only", "IDS", "run only these rules (comma-separated ids or names)", 0},
    {OPT_DISABLE, 0, "disable", "IDS", "disable these rules (comma-separated ids or names)", 0},
    {OPT_COMPDB, 'p', NULL, "DIR",
     "read compile flags from DIR/compile_commands.json, or that file named (with no files: "
     "analyse every entry)",
     0},
    {OPT_CUDA_PATH, 0, "cuda-path", "DIR",
     "CUDA toolkit to parse against (default: $CUDA_PATH, then /usr/local/cuda)", 0},
    {OPT_FORMAT, 0, "format", "FMT", "output format: text (default), json or sarif", 0},
    {OPT_OUTPUT, 'o', "output", "FILE", "write findings to FILE instead of standard output", 0},
    {OPT_JOBS, 'j', "jobs", "N", "analyse N files in parallel (default: number of cores)", 0},
    {OPT_WERROR, 0, "werror", NULL, "report findings as errors", 0},
    {OPT_LATENT, 0, "latent", NULL,
     "also report latent leaks and frees: those on a path that needs a value tested twice to "
     "change in between through a call gmemlint does not follow, or that branches on code clang "
     "could not type (README: \"Manifest and latent findings\")",
     0},
    {OPT_EXPLAIN, 0, "explain", NULL,
     "for each finding an exemption, a threshold, the latent filter or a cut-short analysis "
     "kept from the report, say which and why (text notes; JSON \"suppressed\")",
     0},
    {OPT_ALLOW_PARSE_ERRORS, 0, "allow-parse-errors", NULL,
     "exit 0 or 1 by the findings alone when files had parse errors (default: exit 3)", 0},
    {OPT_SHOW_PARSE_ERRORS, 0, "show-parse-errors", "N",
     "print the first N of clang's errors in each file (default 3; all: every one)", 0},
    {OPT_VERIFY, 0, "verify", NULL,
     "check findings against // expected-warning {{...}} comments in each file", 0},
    {OPT_NO_WHOLE_PROGRAM, 0, "no-whole-program", NULL,
     "analyse each file as a program of its own, as if named alone (unrelated files, such as "
     "a directory of tests, checked in one run)",
     0},
    {OPT_MAX_MEMORY, 0, "max-memory", "SIZE",
     "bound the run's memory (address space) to SIZE (e.g. 8G, 512M; 0: no bound; default: half "
     "the machine's memory): a file whose analysis needs more is reported as not analysed and "
     "the run goes on",
     0},
    {OPT_MAX_FILE_TIME, 0, "max-file-time", "SECONDS",
     "bound one file's analysis to SECONDS (default 600; 0: no bound): a file that takes "
     "longer is reported as not analysed and the run goes on",
     0},
    {OPT_NO_ISOLATION, 0, "no-isolation", NULL,
     "analyse without the supervising process that survives a parser crash (a crash then ends "
     "the run)",
     0},
    {OPT_SARIF_ROOT, 0, "sarif-root", "DIR", "make SARIF file URIs relative to DIR (default: .)",
     0},
    {OPT_BASELINE, 0, "baseline", "FILE", "report only findings that are not in FILE", 0},
    {OPT_WRITE_BASELINE, 0, "write-baseline", "FILE", "write all current findings to FILE", 0},
    {OPT_CONFIG, 0, "config", "FILE", "use FILE instead of the nearest .gmemlint above each source",
     0},
    {OPT_COLOR, 0, "color", "WHEN",
     "colour text output: auto (default: on a terminal, unless NO_COLOR is set), always, never", 0},
    {OPT_EXPORT_FIXES, 0, "export-fixes", "FILE",
     "write fix-its as YAML for clang-apply-replacements (see docs/fixes.md)", 0},
    {OPT_PCH, 0, "pch", "WHEN",
     "share precompiled preambles between files (the CUDA headers, and runs of leading "
     "#include <...> lines that files share): auto (default: from 3 .cu files), always, never",
     0},
    {OPT_TELEMETRY, 0, "telemetry", "FILE",
     "judge each finding against runtime telemetry from an instrumented run (gmemcc); repeat "
     "for several runs or ranks, which are merged (docs/join.md)",
     0},
    {OPT_ONLY_CONFIRMED, 0, "only-confirmed", NULL,
     "with --telemetry: report only confirmed findings and runtime-only ones (GM1xx)", 0},
    {OPT_TOP, 0, "top", "N", "gmemlint report: sites listed per table (default 10)", 0},
    {OPT_HTML, 0, "html", "FILE",
     "gmemlint report: write one self-contained HTML page (charts, sites, findings with their "
     "verdicts when sources are given; docs/report.md)",
     0},
    {OPT_TRACE, 0, "trace", "FILE",
     "gmemlint report: write the timeline as Chrome trace / Perfetto JSON", 0},
    {OPT_NO_CACHE, 0, "no-cache", NULL,
     "do not read or write the result cache (default: unchanged files, headers and flags are "
     "not parsed again)",
     0},
    {OPT_CACHE_DIR, 0, "cache-dir", "DIR",
     "keep the result cache in DIR (default: $XDG_CACHE_HOME/gmemlint, else "
     "~/.cache/gmemlint)",
     0},
    {OPT_CACHE_STATS, 0, "cache-stats", NULL,
     "print the result cache's hits and misses, and the preamble store's, at the end", 0},
    {OPT_NO_PCH_STORE, 0, "no-pch-store", NULL,
     "do not keep preambles between runs (default: in the cache directory's preambles/, even "
     "with --no-cache; off with --verify)",
     0},
    {OPT_PCH_STORE_MAX, 0, "pch-store-max", "SIZE",
     "bound the preamble store: the least recently used go beyond SIZE (K, M, G; default 2G, "
     "or $" GM_PCH_STORE_MAX_ENV ")",
     0},
    {OPT_PROGRESS, 0, "progress", NULL,
     "show a [done/total] file counter on standard error (default: when it is a terminal)", 0},
    {OPT_NO_PROGRESS, 0, "no-progress", NULL, "never show the file counter", 0},
    {OPT_TIME_REPORT, 0, "time-report", NULL,
     "print where the time went (preamble builds, parse, model, flow, rules, output), CPU time, "
     "peak memory and the slowest files on standard error at the end",
     0},
    {OPT_INSTALL_HOOK, 0, "install-hook", NULL,
     "install a git pre-commit hook that lints the staged files; the other options given are "
     "kept in it",
     0},
    {OPT_FORCE, 0, "force", NULL, "with --install-hook: replace a pre-commit hook of another tool",
     0},
    {OPT_DUMP_MODEL, 0, "dump-model", NULL, "print each function's memory model (debugging)", 1},
    {OPT_DUMP_NVCC_COMPAT, 0, "dump-nvcc-compat", NULL,
     "print the header force-included into every CUDA parse (for clang with the same flags)", 1},
    {OPT_MAN, 0, "man", NULL, "print the manual page in roff format", 1},
};

static const char *usage_line = "usage: gmemlint [options] <files...> [-- <compiler flags>]\n"
                                "       gmemlint report [--top=N] [-o FILE] [--html FILE] "
                                "[--trace FILE] <telemetry.json...> [sources...]";

static const char *help_tail =
    "\nFiles: .cu, .cuh, .c, .cpp (and other C/C++ sources), parsed with libclang in CUDA host "
    "mode.\n"
    "Flags after -- are passed to the parser (e.g. -- -Iinclude -DNDEBUG).\n"
    "A file ending in .gmemlint.json holds findings computed earlier (--format=json output, as\n"
    "gmemcc --gmem-lint writes it) and is read instead of parsing a source.\n"
    "\nRuntime evidence: build with gmemcc, run the program, then\n"
    "  gmemlint --telemetry gmemlint-<pid>.json src/*.cu\n"
    "gives each finding a verdict (confirmed, dismissed, not-exercised, unverifiable) with its\n"
    "figures, and adds runtime-only findings (GM1xx); with no sources (a program under gmemrun,\n"
    "a Python script) it reports the runtime-only findings alone. gmemlint report\n"
    "<telemetry...> prints the runtime view.\n"
    "\nSuppressions: // NOLINT, // NOLINT(GM001), // NOLINTNEXTLINE(GM001,GM002) on or above the\n"
    "reported line; a .gmemlint file (searched upward from each source) can disable rules and\n"
    "declare the project's own allocators.\n"
    "\nExit status:\n"
    "  0  no findings\n"
    "  1  findings reported (with --verify: expectations not met; with --only-confirmed:\n"
    "     confirmed or runtime-only findings remain)\n"
    "  2  usage error, or an input that could not be analysed (missing, unreadable, a\n"
    "     directory, empty, binary, unparsable, bad compile_commands.json or .gmemlint, a\n"
    "     telemetry or .gmemlint.json file that is missing, malformed or of another version),\n"
    "     an output that names an input or another output, or an output that cannot be\n"
    "     written\n"
    "  3  files had parse errors, so findings may be missing (unless --allow-parse-errors;\n"
    "     2 takes precedence over 3, and 3 over 1)\n";

void gm_options_help(FILE *out) {
  fprintf(out, "%s\n\nFind GPU memory problems in CUDA C/C++ sources.\n\nOptions:\n", usage_line);
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    const opt_def *d = &options[i];
    if (d->hidden)
      continue;
    char left[64];
    if (d->short_name && d->long_name)
      snprintf(left, sizeof left, "-%c, --%s%s%s", d->short_name, d->long_name, d->arg ? "=" : "",
               d->arg ? d->arg : "");
    else if (d->short_name)
      snprintf(left, sizeof left, "-%c %s", d->short_name, d->arg ? d->arg : "");
    else
      snprintf(left, sizeof left, "    --%s%s%s", d->long_name, d->arg ? "=" : "",
               d->arg ? d->arg : "");
    fprintf(out, "  %-26s %s\n", left, d->help);
  }
  fputs(help_tail, out);
}

static void roff_escape(FILE *out, const char *s) {
  for (; *s; s++) {
    if (*s == '-' || *s == '\\')
      fputc('\\', out);
    fputc(*s, out);
  }
}

void gm_options_man(FILE *out) {
  fputs(".TH GMEMLINT 1\n.SH NAME\ngmemlint \\- find GPU memory problems in CUDA C/C++ sources\n"
        ".SH SYNOPSIS\n.B gmemlint\n[options] files... [\\-\\- compiler flags]\n.br\n"
        ".B gmemlint report\n[\\-\\-top N] [\\-o FILE] [\\-\\-html FILE] [\\-\\-trace FILE] "
        "telemetry.json... [sources...]\n.SH OPTIONS\n",
        out);
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    const opt_def *d = &options[i];
    if (d->hidden)
      continue;
    fputs(".TP\n.B ", out);
    if (d->short_name)
      fprintf(out, "\\-%c%s", d->short_name, d->long_name ? ", " : "");
    if (d->long_name) {
      fputs("\\-\\-", out);
      roff_escape(out, d->long_name);
    }
    if (d->arg)
      fprintf(out, " %s", d->arg);
    fputs("\n", out);
    roff_escape(out, d->help);
    fputs("\n", out);
  }
  fputs(".SH EXIT STATUS\n0 no findings; 1 findings; 2 usage or input error; 3 parse errors "
        "(unless \\-\\-allow\\-parse\\-errors).\n",
        out);
}

static int usage_error(const char *fmt, const char *a) {
  fprintf(stderr, GM_PROGRAM ": error: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\nTry '" GM_PROGRAM " --help' for more information.\n");
  return GM_EXIT_USAGE;
}

static int apply(gm_options *o, const opt_def *d, const char *arg) {
  switch (d->id) {
  case OPT_HELP:
    o->show_help = 1;
    break;
  case OPT_MAN:
    o->show_help = 2;
    break;
  case OPT_VERSION:
    o->show_version = 1;
    break;
  case OPT_LIST_RULES:
    o->list_rules = 1;
    break;
  case OPT_ENABLE:
    GM_PUSH(o->enable, arg);
    break;
  case OPT_ONLY:
    GM_PUSH(o->only, arg);
    break;
  case OPT_DISABLE:
    GM_PUSH(o->disable, arg);
    break;
  case OPT_COMPDB:
    o->compdb_dir = arg;
    break;
  case OPT_CUDA_PATH:
    o->cuda_path = arg;
    break;
  case OPT_FORMAT:
    if (strcmp(arg, "text") == 0)
      o->format = GM_FORMAT_TEXT;
    else if (strcmp(arg, "json") == 0)
      o->format = GM_FORMAT_JSON;
    else if (strcmp(arg, "sarif") == 0)
      o->format = GM_FORMAT_SARIF;
    else
      return usage_error("unknown format '%s' (expected text, json or sarif)", arg);
    break;
  case OPT_OUTPUT:
    o->output = arg;
    break;
  case OPT_JOBS: {
    char *end;
    long n = strtol(arg, &end, 10);
    if (*arg == 0 || *end || n < 1 || n > 1024)
      return usage_error("bad job count '%s' (expected a number from 1 to 1024)", arg);
    o->jobs = (int)n;
    break;
  }
  case OPT_WERROR:
    o->werror = 1;
    break;
  case OPT_LATENT:
    o->latent = 1;
    break;
  case OPT_EXPLAIN:
    o->explain = 1;
    break;
  case OPT_VERIFY:
    o->verify = 1;
    break;
  case OPT_NO_WHOLE_PROGRAM:
    o->no_whole_program = 1;
    break;
  case OPT_NO_ISOLATION:
    o->no_isolation = 1;
    break;
  case OPT_MAX_FILE_TIME: {
    char *end;
    long n = strtol(arg, &end, 10);
    if (*arg < '0' || *arg > '9' || *end || n < 0 || n > 86400 * 7)
      return usage_error("bad --max-file-time value '%s' (expected seconds, 0 for no bound)", arg);
    o->max_file_time = (unsigned)n;
    o->max_file_time_set = 1;
    break;
  }
  case OPT_MAX_MEMORY: {
    uint64_t n;
    if (!gm_parse_size(arg, &n))
      return usage_error("bad --max-memory value '%s' (expected a size such as 8G, 512M or 0)",
                         arg);
    o->max_memory = n;
    o->max_memory_set = 1;
    break;
  }
  case OPT_SARIF_ROOT:
    o->sarif_root = arg;
    break;
  case OPT_BASELINE:
    o->baseline = arg;
    break;
  case OPT_WRITE_BASELINE:
    o->write_baseline = arg;
    break;
  case OPT_CONFIG:
    o->config = arg;
    break;
  case OPT_COLOR:
    if (strcmp(arg, "auto") == 0)
      o->color = GM_COLOR_AUTO;
    else if (strcmp(arg, "always") == 0)
      o->color = GM_COLOR_ALWAYS;
    else if (strcmp(arg, "never") == 0)
      o->color = GM_COLOR_NEVER;
    else
      return usage_error("bad --color value '%s' (expected auto, always or never)", arg);
    break;
  case OPT_EXPORT_FIXES:
    o->export_fixes = arg;
    break;
  case OPT_PCH:
    if (strcmp(arg, "auto") == 0)
      o->pch = GM_PCH_AUTO;
    else if (strcmp(arg, "always") == 0)
      o->pch = GM_PCH_ALWAYS;
    else if (strcmp(arg, "never") == 0)
      o->pch = GM_PCH_NEVER;
    else
      return usage_error("bad --pch value '%s' (expected auto, always or never)", arg);
    break;
  case OPT_DUMP_MODEL:
    o->dump_model = 1;
    break;
  case OPT_DUMP_NVCC_COMPAT:
    o->show_help = 3;
    break;
  case OPT_NO_CACHE:
    o->no_cache = 1;
    break;
  case OPT_CACHE_DIR:
    o->cache_dir = arg;
    break;
  case OPT_CACHE_STATS:
    o->cache_stats = 1;
    break;
  case OPT_NO_PCH_STORE:
    o->no_pch_store = 1;
    break;
  case OPT_PCH_STORE_MAX:
    if (!gm_parse_size(arg, &o->pch_store_max))
      return usage_error("bad --pch-store-max value '%s' (expected a size such as 500M or 2G)",
                         arg);
    o->pch_store_max_set = 1;
    break;
  case OPT_PROGRESS:
    o->progress = 1;
    break;
  case OPT_NO_PROGRESS:
    o->progress = -1;
    break;
  case OPT_TIME_REPORT:
    o->time_report = 1;
    break;
  case OPT_INSTALL_HOOK:
    o->install_hook = 1;
    break;
  case OPT_FORCE:
    o->force = 1;
    break;
  case OPT_ALLOW_PARSE_ERRORS:
    o->allow_parse_errors = 1;
    break;
  case OPT_SHOW_PARSE_ERRORS: {
    char *end = NULL;
    long n = strtol(arg, &end, 10);
    if (strcmp(arg, "all") == 0)
      n = -1;
    else if (*arg == 0 || *end || n < 0 || n > 100000)
      return usage_error("bad --show-parse-errors value '%s' (expected a number or all)", arg);
    o->parse_errors_shown = (int)n;
    break;
  }
  case OPT_TELEMETRY:
    GM_PUSH(o->telemetry, arg);
    break;
  case OPT_ONLY_CONFIRMED:
    o->only_confirmed = 1;
    break;
  case OPT_TOP: {
    char *end;
    long n = strtol(arg, &end, 10);
    if (*arg == 0 || *end || n < 1 || n > 100000)
      return usage_error("bad --top value '%s' (expected a number from 1 to 100000)", arg);
    o->top = (int)n;
    break;
  }
  case OPT_HTML:
    o->html = arg;
    break;
  case OPT_TRACE:
    o->trace = arg;
    break;
  }
  return 0;
}

int gm_options_parse(gm_options *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  o->sarif_root = ".";
  o->top = 10;
  o->parse_errors_shown = 3;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (int)cores : 1;
  const size_t nopts = sizeof options / sizeof options[0];
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "report") == 0) {
    o->report_command = 1; /* a subcommand: the files that follow are telemetry */
    first = 2;
  }
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      for (int k = i + 1; k < argc; k++)
        GM_PUSH(o->extra_args, argv[k]);
      break;
    }
    if (a[0] != '-' || a[1] == 0) {
      GM_PUSH(o->files, a);
      continue;
    }
    const opt_def *d = NULL;
    const char *arg = NULL;
    if (a[1] == '-') {
      const char *name = a + 2;
      const char *eq = strchr(name, '=');
      size_t len = eq ? (size_t)(eq - name) : strlen(name);
      for (size_t k = 0; k < nopts && !d; k++)
        if (options[k].long_name && strlen(options[k].long_name) == len &&
            strncmp(options[k].long_name, name, len) == 0)
          d = &options[k];
      if (!d)
        return usage_error("unknown option '%s'", a);
      if (eq && !d->arg)
        return usage_error("option '--%s' takes no value", d->long_name);
      if (d->arg)
        arg = eq ? eq + 1 : NULL;
    } else {
      for (size_t k = 0; k < nopts && !d; k++)
        if (options[k].short_name == a[1])
          d = &options[k];
      if (!d)
        return usage_error("unknown option '%s'", a);
      if (d->arg && a[2])
        arg = a[2] == '=' ? a + 3 : a + 2;
      else if (!d->arg && a[2])
        return usage_error("unknown option '%s'", a);
    }
    if (d->arg && !arg) {
      if (i + 1 >= argc)
        return usage_error("option '%s' needs a value", a);
      arg = argv[++i];
    }
    int rc = apply(o, d, arg);
    if (rc)
      return rc;
  }
  if ((o->html || o->trace) && !o->report_command)
    return usage_error("%s is an option of 'gmemlint report'", o->html ? "--html" : "--trace");
  const char *store_max = getenv(GM_PCH_STORE_MAX_ENV);
  if (!o->pch_store_max_set) {
    o->pch_store_max = GM_PCH_STORE_DEFAULT_MAX;
    if (store_max && *store_max && !gm_parse_size(store_max, &o->pch_store_max))
      return usage_error("bad " GM_PCH_STORE_MAX_ENV " value '%s' (expected a size such as 500M "
                         "or 2G)",
                         store_max);
  }
  return 0;
}

void gm_options_free(gm_options *o) {
  GM_VEC_FREE(o->files);
  GM_VEC_FREE(o->extra_args);
  GM_VEC_FREE(o->enable);
  GM_VEC_FREE(o->only);
  GM_VEC_FREE(o->disable);
  GM_VEC_FREE(o->telemetry);
}
