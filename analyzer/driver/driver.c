#include "driver/driver.h"
#include "driver/build_copies.h"

#include "driver/passes.h"

#include "driver/cache.h"
#include "driver/config.h"
#include "driver/explain.h"
#include "driver/fingerprint.h"
#include "driver/own_include.h"
#include "driver/preambles.h"
#include "driver/supervise.h"
#include "driver/progress.h"
#include "driver/read_problems.h"
#include "driver/suppress.h"
#include "findings/verify.h"
#include "flow/flow.h"
#include "frontend/cuda_wrapper.h"
#include "frontend/frontend.h"
#include "frontend/include_run.h"
#include "frontend/pch.h"
#include "frontend/pch_store.h"
#include "program/program.h"
#include "rules/rules.h"
#include "runtime_view/join.h"
#include "support/timing.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

enum lang { LANG_NONE, LANG_CUDA, LANG_C, LANG_CXX };

static enum lang lang_of(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash))
    return LANG_NONE;
  char ext[16];
  size_t n = strlen(dot + 1);
  if (n >= sizeof ext)
    return LANG_NONE;
  for (size_t i = 0; i <= n; i++)
    ext[i] = (char)tolower((unsigned char)dot[1 + i]);
  if (strcmp(ext, "cu") == 0 || strcmp(ext, "cuh") == 0)
    return LANG_CUDA;
  if (strcmp(dot + 1, "c") == 0)
    return LANG_C;
  static const char *const cxx[] = {"cc", "cpp", "cxx", "c++", "c", "h", "hh", "hpp", "hxx", "inl"};
  for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++)
    if (strcmp(ext, cxx[i]) == 0)
      return LANG_CXX;
  return LANG_NONE;
}

static enum lang lang_of_entry(gm_compdb_lang entry_lang) {
  switch (entry_lang) {
  case GM_COMPDB_LANG_CUDA:
    return LANG_CUDA;
  case GM_COMPDB_LANG_C:
    return LANG_C;
  case GM_COMPDB_LANG_CXX:
    return LANG_CXX;
  default:
    return LANG_NONE;
  }
}

typedef struct file_ctx {
  gm_run *run;
  gm_file_result *r;
  FILE *msg;
} file_ctx;

static void input_error(file_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void input_error(file_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *text = NULL;
  if (vasprintf(&text, fmt, ap) < 0)
    text = NULL;
  va_end(ap);
  fprintf(c->msg, GM_PROGRAM ": error: %s\n", text ? text : fmt);
  if (!c->r->first_error && text)
    c->r->first_error = gm_xstrdup(text);
  free(text);
  c->r->input_error = 1;
}

/* A project directory that holds a header named as one of the toolkit's that clang's CUDA
 * wrapper includes (cuda.h, driver_types.h, ...): the wrapper is replaced by gmemlint's copy,
 * which names the toolkit's by their paths (cuda_wrapper.h), as nvcc's headers find their own. */
static void add_cuda_wrapper(gm_run *run, const gm_str_vec *extra, gm_str_vec *args) {
  if (!gm_cuda_wrapper_needed(extra->items, extra->len, run->cuda_path))
    return;
  GM_PUSH(*args, gm_xstrdup("-nocudainc"));
  GM_PUSH(*args, gm_xstrdup("-include"));
  GM_PUSH(*args, gm_xstrdup(GM_CUDA_WRAPPER_PATH));
}

static int has_std_flag(char **args, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strncmp(args[i], "-std=", 5) == 0)
      return 1;
  return 0;
}

/* What the host compiler (GCC before 14) accepts with a warning and clang 16 rejects, made
 * warnings again (-w then hides them): in C, calls to undeclared functions and implicit int... */
static const char *const gcc_lenient_c[] = {"-Wno-error=implicit-function-declaration",
                                            "-Wno-error=implicit-int", "-Wno-error=int-conversion",
                                            "-Wno-error=incompatible-pointer-types"};

/* ... and in C++: `register` under C++17, and a string literal glued to a macro ("%"PRIu64),
 * which GCC reads as the two tokens with a warning */
static const char *const gcc_lenient_cxx[] = {"-Wno-error=register",
                                              "-Wno-error=reserved-user-defined-literal"};

/* The file's parser flags; its compile_commands.json entry's -x (nvcc's -x cu on a .cpp the
 * build compiles as CUDA) decides its language over the extension. */
static void build_args(gm_run *run, const char *path, enum lang *langp, gm_str_vec *args,
                       file_ctx *c) {
  gm_str_vec extra = {0};
  gm_compdb_lang entry_lang = GM_COMPDB_LANG_UNSET;
  int how = run->db ? gm_compdb_lookup(run->db, path, &extra, &entry_lang, c->msg) : 1;
  if (entry_lang != GM_COMPDB_LANG_UNSET)
    *langp = lang_of_entry(entry_lang);
  enum lang lang = *langp;
  /* said once for the whole run (read_problems.h): one line per file buried the findings */
  if (run->db)
    c->r->compdb_match = how == 1   ? GM_COMPDB_ENTRY
                         : how == 2 ? GM_COMPDB_SIMILAR
                                    : GM_COMPDB_DEFAULT;
  for (size_t i = 0; i < run->opt->extra_args.len; i++)
    GM_PUSH(extra, gm_xstrdup(run->opt->extra_args.items[i]));
  if (lang == LANG_CUDA) {
    GM_PUSH(*args, gm_xstrdup("-x"));
    GM_PUSH(*args, gm_xstrdup("cuda"));
    GM_PUSH(*args, gm_xstrdup("--cuda-host-only"));
    GM_PUSH(*args, gm_xstrdup("-nocudalib"));
    GM_PUSH(*args, gm_xstrdup("-Wno-unknown-cuda-version"));
    GM_PUSH(*args, gm_xasprintf("--cuda-path=%s", run->cuda_path));
    /* parse what nvcc parses: kernel launches from device code (dynamic parallelism) and the
     * header of what nvcc's own headers give that clang's do not (nvcc_compat.h); GNU's
     * `typeof` only in a second parse of a file whose errors name it (nvcc_fixups.h) */
    GM_PUSH(*args, gm_xstrdup("-fgpu-rdc"));
    add_cuda_wrapper(run, &extra, args);
    GM_PUSH(*args, gm_xstrdup("-include"));
    GM_PUSH(*args, gm_xstrdup(GM_NVCC_COMPAT_PATH));
    if (gm_clang_resource_dir()) { /* clang's CUDA wrappers of <new>, <cmath>, ... */
      GM_PUSH(*args, gm_xstrdup("-resource-dir"));
      GM_PUSH(*args, gm_xstrdup(gm_clang_resource_dir()));
    }
  } else {
    GM_PUSH(*args, gm_xstrdup("-x"));
    GM_PUSH(*args, gm_xstrdup(lang == LANG_C ? "c" : "c++"));
  }
  if (lang == LANG_C)
    for (size_t i = 0; i < sizeof gcc_lenient_c / sizeof gcc_lenient_c[0]; i++)
      GM_PUSH(*args, gm_xstrdup(gcc_lenient_c[i]));
  else
    for (size_t i = 0; i < sizeof gcc_lenient_cxx / sizeof gcc_lenient_cxx[0]; i++)
      GM_PUSH(*args, gm_xstrdup(gcc_lenient_cxx[i]));
  if (lang != LANG_C && !has_std_flag(extra.items, extra.len))
    GM_PUSH(*args, gm_xstrdup("-std=c++17"));
  GM_PUSH(*args, gm_xstrdup("-w"));              /* compiler warnings are not our findings */
  GM_PUSH(*args, gm_xstrdup("-ferror-limit=0")); /* clang stops after 20 errors otherwise */
  for (size_t i = 0; i < extra.len; i++)
    GM_PUSH(*args, extra.items[i]);
  GM_VEC_FREE(extra);
  /* As nvcc.profile does: the toolkit's headers, and CUB, thrust, libcu++ and cooperative groups
   * under include/cccl, as system directories (so their declarations borrow, never leak), after
   * the user's own directories. */
  GM_PUSH(*args, gm_xstrdup("-isystem"));
  GM_PUSH(*args, gm_xasprintf("%s/include", run->cuda_path));
  GM_PUSH(*args, gm_xstrdup("-isystem"));
  GM_PUSH(*args, gm_xasprintf("%s/include/cccl", run->cuda_path));
  /* <gmemlint/gmemrt.h> (gmem_step()) is found as gmemcc finds it, last, so a project's own
   * copy still wins */
  if (gm_own_include_dir()) {
    GM_PUSH(*args, gm_xstrdup("-idirafter"));
    GM_PUSH(*args, gm_xstrdup(gm_own_include_dir()));
  }
}

static int finding_cmp(const void *a, const void *b) {
  const gm_finding *x = a, *y = b;
  int c = strcmp(x->loc.file, y->loc.file);
  if (c)
    return c;
  if (x->loc.line != y->loc.line)
    return x->loc.line < y->loc.line ? -1 : 1;
  if (x->loc.col != y->loc.col)
    return x->loc.col < y->loc.col ? -1 : 1;
  return strcmp(x->rule->id, y->rule->id);
}

static int notice_cmp(const void *a, const void *b) {
  const gm_notice *x = a, *y = b;
  if (x->loc.line != y->loc.line)
    return x->loc.line < y->loc.line ? -1 : 1;
  if (x->loc.col != y->loc.col)
    return x->loc.col < y->loc.col ? -1 : 1;
  return strcmp(x->message, y->message);
}

/* Drops the findings from `first` on that a NOLINT comment suppresses, then puts all in a stable
 * order with their --werror level and fingerprints. */
void driver_settle_findings(gm_run *run, gm_file_result *r, size_t first) {
  gm_build_copies_apply(run->copies, &r->report, first);
  gm_drop_suppressed(&r->report, first, r->path, &r->src);
  if (!run->opt->explain)
    driver_drop_explanations(&r->report);
  if (r->report.findings.len)
    qsort(r->report.findings.items, r->report.findings.len, sizeof(gm_finding), finding_cmp);
  if (r->report.notices.len > 1)
    qsort(r->report.notices.items, r->report.notices.len, sizeof(gm_notice), notice_cmp);
  for (size_t i = 0; i < r->report.findings.len; i++)
    r->report.findings.items[i].error = run->opt->werror;
  driver_fingerprint_findings(&r->report, r->path, &r->src);
}

/* --only names the rules that run (off-by-default ones too), less --disable's; otherwise the
 * defaults (every rule not off by default), with .gmemlint's [rules] enable added and its
 * disable taken out, then the command line's --enable added and --disable taken out: the
 * command line has the last word, as cppcheck's --enable adds to its defaults. */
int driver_rule_enabled(gm_run *run, const gm_config *cfg, size_t i) {
  uint64_t bit = 1ULL << i;
  if (run->cli_disabled & bit)
    return 0;
  if (run->cli_only)
    return (run->cli_only & bit) != 0;
  if ((run->cli_enabled | cfg->enabled_rules) & bit)
    return 1;
  return !gm_rules[i]->off_by_default && !(cfg->disabled_rules & bit);
}

void driver_check_function(gm_run *run, const gm_file_result *r, const gm_check_ctx *ctx) {
  for (size_t k = 0; k < gm_rule_count; k++)
    if (gm_rules[k]->check && driver_rule_enabled(run, r->cfg, k))
      gm_rules[k]->check(ctx);
}

int gm_rule_selected(const gm_run *run, size_t k) {
  uint64_t bit = 1ULL << k;
  if (run->cli_disabled & bit)
    return 0;
  return run->cli_only ? (run->cli_only & bit) != 0 : 1;
}

/* A *.gmemlint.json: findings computed earlier (gmemcc --gmem-lint), read instead of parsed;
 * the command line's rule selection still applies. */
static void read_findings(gm_run *run, file_ctx *c) {
  char err[1024];
  gm_report *rep = &c->r->report;
  if (!gm_findings_read(c->r->path, &gm_rule_registry, rep, err, sizeof err)) {
    input_error(c, "%s", err);
    return;
  }
  size_t w = 0;
  for (size_t i = 0; i < rep->findings.len; i++) {
    gm_finding *f = &rep->findings.items[i];
    size_t k = 0;
    while (k < gm_rule_count && gm_rules[k] != f->rule)
      k++;
    if (!gm_rule_selected(run, k)) {
      gm_finding_free(f);
      continue;
    }
    f->error = run->opt->werror;
    rep->findings.items[w++] = *f;
  }
  rep->findings.len = w;
}

/* What phase one leaves for phase two: a file that needs a parse (a cache miss). */
typedef struct prepared {
  file_ctx c; /* its message stream stays open between the phases */
  enum lang lang;
  const gm_config *cfg;
  gm_str_vec args;
  gm_cache_key key;
  size_t messages_mark; /* where the messages a cache entry replays begin */
  gm_include_run run;   /* a CUDA file's leading system includes, when preambles are used */
} prepared;

/* Phase one: checks and reads the file, builds its flags and looks it up in the result cache.
 * Returns 1 when the file needs a parse (p is filled), 0 when it is finished: an input error,
 * findings read from a .gmemlint.json, or a cache hit. */
static int prepare(gm_run *run, gm_file_result *r, prepared *p) {
  file_ctx c = {run, r, open_memstream(&r->messages, &r->messages_len)};
  const char *path = r->path;
  struct stat st;
  enum lang lang = lang_of(path);
  if (stat(path, &st) != 0) {
    input_error(&c, "%s: %s", path, strerror(errno));
    goto done;
  }
  if (gm_is_findings_file(path)) {
    read_findings(run, &c);
    goto done;
  }
  if (S_ISDIR(st.st_mode)) {
    input_error(&c, "%s: is a directory (name the source files, e.g. %s/*.cu)", path, path);
    goto done;
  }
  if (lang == LANG_NONE && run->db) { /* the entry's -x names what the extension does not */
    gm_str_vec unused = {0};
    gm_compdb_lang entry_lang = GM_COMPDB_LANG_UNSET;
    if (gm_compdb_lookup(run->db, path, &unused, &entry_lang, NULL) == 1)
      lang = lang_of_entry(entry_lang);
    for (size_t i = 0; i < unused.len; i++)
      free(unused.items[i]);
    GM_VEC_FREE(unused);
  }
  if (lang == LANG_NONE) {
    input_error(&c, "%s: not a C, C++ or CUDA source (expected .cu, .cuh, .c, .cpp, .cc, .h, ...)",
                path);
    goto done;
  }
  size_t len;
  char *text = gm_read_file(path, &len);
  if (!text) {
    input_error(&c, "%s: cannot read: %s", path, strerror(errno));
    goto done;
  }
  gm_source_init(&r->src, text, len);
  if (len == 0) {
    input_error(&c, "%s: file is empty; nothing to analyse", path);
    goto done;
  }
  const char *nul = memchr(text, 0, len);
  if (nul) {
    input_error(&c, "%s:%u: file contains a NUL byte; not a source file (binary?)", path,
                gm_source_line_of(&r->src, (size_t)(nul - text)));
    goto done;
  }
  size_t bad;
  if (!gm_utf8_valid(text, len, &bad))
    fprintf(c.msg, GM_PROGRAM ": warning: %s:%u: invalid UTF-8; analysing the file as bytes\n",
            path, gm_source_line_of(&r->src, bad));

  const gm_config *cfg = gm_config_for(path, run->opt->config);
  if (cfg->error) {
    input_error(&c, "%s", cfg->error);
    goto done;
  }
  r->cfg = cfg;

  gm_str_vec args = {0};
  build_args(run, path, &lang, &args, &c);
  /* the key is made before any PCH flag: a result does not depend on how the parse was sped up */
  gm_cache_key key = {{0, 0}};
  size_t messages_mark = 0;
  if (run->cache) {
    key = gm_cache_key_for(run->cache, path, text, len, (const char *const *)args.items, args.len,
                           cfg->path);
    r->key = key;
    if (r->imports)
      key = gm_cache_key_mix(key, r->imports);
    if (gm_cache_load(run->cache, &key, path, &r->report, &r->unit, c.msg)) {
      for (size_t i = 0; i < args.len; i++)
        free(args.items[i]);
      GM_VEC_FREE(args);
      goto done;
    }
    fflush(c.msg);
    messages_mark = r->messages_len;
  }
  *p = (prepared){c, lang, cfg, args, key, messages_mark, {0}};
  return 1;
done:
  fclose(c.msg);
  return 0;
}

/* Whole-program pass two: a call to a function defined in another file gets that file's summary. */
struct import_ctx {
  const gm_program *program;
  size_t self;
};

static const gm_call_summary *find_import(void *arg, const char *usr) {
  const struct import_ctx *c = arg;
  return c->program ? gm_program_summary(c->program, usr, c->self) : NULL;
}

/* The analysis of a parsed file: flow (with other files' summaries in pass two), the rules, the
 * unit summary, then suppressions, order and fingerprints. */
void driver_analyse_parse(gm_run *run, gm_file_result *r, const gm_parse *parse) {
  driver_add_parse_notices(r, parse);
  if (parse->tu) {
    gm_func_facts *facts;
    int nfacts;
    gm_call_summary *summaries;
    int nsummaries;
    struct import_ctx ictx = {r->program, r->program_self};
    gm_flow_imports imports = {find_import, &ictx, r->cfg->table};
    double start = gm_timing_start();
    /* imports also say that the run's functions are all known: the file is the program
     * (--no-whole-program, or one file), or pass one has seen every file */
    int whole_run_known = r->imports || run->opt->no_whole_program || run->nfiles == 1;
    gm_flow_analyze(parse->tu, whole_run_known ? &imports : NULL, &facts, &nfacts, &summaries,
                    &nsummaries);
    gm_timing_stop(GM_STAGE_FLOW, start);
    start = gm_timing_start();
    for (int i = 0; i < nfacts; i++) {
      /* paths were dropped to stay within the budget: say so, whatever the findings */
      if (facts[i].truncated) {
        gm_report_cut_short(&r->report, facts[i].fn, facts[i].truncated);
        gm_report_suppressed(&r->report, NULL, "cut-short", facts[i].fn->loc, facts[i].fn->name,
                             "what the paths of '%s' past the budget would show is not known",
                             facts[i].fn->name);
      }
      if (!run->opt->latent)
        driver_drop_latent(run, r, parse, &facts[i]);
      gm_check_ctx ctx = {parse->tu,      &r->src,         facts[i].fn,
                          facts[i].facts, facts[i].nfacts, &r->report};
      size_t before = r->report.findings.len;
      driver_check_function(run, r, &ctx);
      driver_name_includer(parse->tu, facts[i].fn, &r->report, before);
    }
    gm_timing_stop(GM_STAGE_RULES, start);
    start = gm_timing_start();
    r->unit = gm_unit_build(parse->tu, r->path, summaries, nsummaries,
                            gm_flow_own_block_frees(parse->tu, facts, nfacts));
    gm_timing_stop(GM_STAGE_UNIT, start);
  }
  double start = gm_timing_start();
  r->parsed = 1;
  r->parse_errors = parse->error_count;
  driver_settle_findings(run, r, 0);
  gm_timing_stop(GM_STAGE_UNIT, start);
}

/* One parse of the file, with preamble pch (NULL: none) and the includes it holds blanked. */
static int parse_with(CXIndex index, const gm_file_result *r, const prepared *p,
                      const gm_preamble *pch, gm_parse *out) {
  const char **args = gm_xcalloc(p->args.len + 3, sizeof(char *));
  size_t nargs = 0;
  for (size_t i = 0; i < p->args.len; i++)
    args[nargs++] = p->args.items[i];
  char *blanked = NULL; /* the file with the includes its preamble holds made spaces */
  if (pch) {
    args[nargs++] = "-include-pch";
    args[nargs++] = gm_pch_path(pch);
    if (gm_pch_headers(pch))
      blanked = gm_include_run_blank(r->src.text, r->src.len, &p->run, gm_pch_header_names(pch),
                                     gm_pch_headers(pch));
  }
  int rc = gm_frontend_parse(index, r->path, args, (int)nargs, blanked, blanked ? r->src.len : 0,
                             p->cfg->table, &p->cfg->thresholds, out);
  free(blanked);
  free(args);
  return rc;
}

/* Phase two: parse (with the shared preamble pch, if any), model, flow, rules, suppressions,
 * fingerprints, unit summary, cache store. */
static void parse_file(gm_run *run, CXIndex index, gm_file_result *r, prepared *p,
                       gm_preamble *pch) {
  file_ctx c = p->c;
  const char *path = r->path;
  const gm_str_vec *pch_includes = NULL;
  char why[160];
  gm_parse parse;
  int rc = -1, skipped = gm_supervised_skip((size_t)(r - run->results), why, sizeof why);
  double file_start = gm_timing_start();
  gm_preamble *used = pch;
  if (!skipped) {
    /* A preamble clang cannot read (a stored one whose checks passed: a file it names gone,
     * damage they cannot see) never costs the file its parse: the preambles below it are
     * tried, then none; those that failed where a lower one served are discarded, for the
     * rest of the run and in the store. A file that parses with none of them blames none. */
    for (;;) {
      while (used && gm_pch_state_of(used) == GM_PCH_FAILED) /* discarded since handed out */
        used = gm_pch_below(used);
      rc = parse_with(index, r, p, used, &parse);
      if (rc == 0 || !used)
        break;
      used = gm_pch_below(used);
    }
    for (gm_preamble *q = pch; rc == 0 && q != used; q = gm_pch_below(q))
      gm_pch_discard(q);
    if (rc == 0 && used) {
      pch_includes = gm_pch_includes(used);
      gm_timing_preamble_use(gm_pch_headers(used), p->run.n);
    }
  }
  gm_include_run_free(&p->run);
  for (size_t i = 0; i < p->args.len; i++)
    free(p->args.items[i]);
  GM_VEC_FREE(p->args);
  if (skipped) {
    input_error(&c, "%s: not analysed: %s; the other files' results stand", path, why);
    goto done;
  }
  if (rc != 0) {
    input_error(&c, "%s: libclang could not parse the file", path);
    goto done;
  }
  int nothing_parsed = parse.error_count && parse.tu && parse.tu->nfuncs == 0;
  if (nothing_parsed)
    input_error(&c, "%s: %d parse error(s) and no function could be analysed", path,
                parse.error_count);
  driver_report_parse_errors(run, r, &parse, nothing_parsed, c.msg);
  if (parse.tu && run->opt->dump_model)
    for (int i = 0; i < parse.tu->nfuncs; i++)
      if (parse.tu->funcs[i]->in_main_file)
        gm_model_dump(parse.tu->funcs[i], c.msg);

  driver_analyse_parse(run, r, &parse);
  /* not a parse with errors: the missing header behind them may appear, unseen by the key */
  if (run->cache && !r->input_error && !parse.error_count) {
    double start = gm_timing_start();
    fflush(c.msg);
    gm_cache_store(run->cache, &p->key, &parse.includes, pch_includes, &r->report, r->unit,
                   r->messages + p->messages_mark, r->messages_len - p->messages_mark, c.msg);
    gm_timing_stop(GM_STAGE_UNIT, start);
  }
  /* pass two may analyse it again with other files' summaries: keep the model, not the parse */
  if (!r->imports && run->nfiles > 1 && !run->opt->no_whole_program && r->unit &&
      r->unit->called.len && !r->input_error) {
    r->kept = gm_xmalloc(sizeof *r->kept);
    *r->kept = parse;
    r->kept_pch_includes = pch_includes;
    r->kept_mark = p->messages_mark;
  } else {
    gm_parse_free(&parse);
  }
  if (gm_timing_enabled())
    gm_timing_file(path, gm_timing_start() - file_start);
done:
  fclose(c.msg);
}

void driver_append_messages(gm_file_result *r, char *text, size_t len) {
  if (len) {
    r->messages = gm_xrealloc(r->messages, r->messages_len + len + 1);
    memcpy(r->messages + r->messages_len, text, len + 1);
    r->messages_len += len;
  }
  free(text);
}

/* --verify, once the program-wide findings are in: its messages follow the file's own. */
static void verify_file(gm_file_result *r) {
  char *text = NULL;
  size_t len = 0;
  FILE *msg = open_memstream(&text, &len);
  r->verify_problems = gm_verify_file(r->path, &r->src, &r->report, r->parse_errors, msg);
  fclose(msg);
  driver_append_messages(r, text, len);
}

/* ---- the worker pool ---- */

/* One pass over some of the files, in two phases: every file is prepared (read, flags, cache
 * lookup) before any is parsed, so that shared preambles are planned for the files left to
 * parse (preambles.h) and built only when enough of them repay it. */
typedef struct pool {
  gm_run *run;
  const size_t *files; /* this pass's files (indexes into run->results), in input order */
  size_t count;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  size_t next;       /* phase one: the next file to prepare */
  size_t nprepared;  /* phase one: files through it */
  prepared *prep;    /* per file */
  char *needs_parse; /* per file */
  size_t *to_parse;  /* phase two: the files that need a parse, in input order */
  size_t nparse;
  parse_queue queue; /* phase two: preamble builds and parses, over to_parse */
  size_t ndone;      /* for the progress line */
} pool;

/* libclang aborts the run when a preamble's write fails (LIBCLANG FATAL ERROR: IO failure), and
 * a preamble of the CUDA headers takes megabytes: under a file size limit (ulimit -f) files are
 * parsed without shared preambles. */
static int preamble_writes_limited_quiet(void) {
  struct rlimit limit;
  return getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
}

static int preamble_writes_limited(void) {
  if (!preamble_writes_limited_quiet())
    return 0;
  fprintf(stderr, GM_PROGRAM ": warning: a file size limit is set (ulimit -f); files are parsed "
                             "without shared preambles, which libclang cannot write past it\n");
  return 1;
}

/* Called once, by the worker that prepares the last file, with the lock held. */
static void plan_parses(pool *p) {
  gm_run *run = p->run;
  size_t cuda_files = 0;
  for (size_t k = 0; k < p->count; k++) {
    size_t i = p->files[k];
    if (p->needs_parse[i]) {
      p->to_parse[p->nparse++] = i;
      cuda_files += p->prep[i].lang == LANG_CUDA;
    }
  }
  /* A shared preamble pays off from the third CUDA file to parse (building it costs about one
   * parse), or from the next run when the store keeps it; cache hits need none. */
  int shared = run->opt->pch == GM_PCH_ALWAYS || (run->opt->pch == GM_PCH_AUTO && cuda_files >= 3);
  run->use_pch = shared || (run->opt->pch == GM_PCH_AUTO && gm_pch_store_enabled());
  if (run->use_pch && cuda_files) /* warned only where the run would have shared them */
    run->use_pch = shared ? !preamble_writes_limited() : !preamble_writes_limited_quiet();
  parse_queue_init(&p->queue, p->nparse);
  if (!run->use_pch || !cuda_files)
    return;
  preamble_file *files = gm_xcalloc(p->nparse + 1, sizeof *files);
  size_t *cuda = gm_xcalloc(p->nparse + 1, sizeof *cuda);
  size_t ncuda = 0;
  for (size_t k = 0; k < p->nparse; k++) {
    prepared *f = &p->prep[p->to_parse[k]];
    if (f->lang != LANG_CUDA)
      continue;
    gm_file_result *r = &run->results[p->to_parse[k]];
    gm_include_run_scan_through(r->path, r->src.text, r->src.len, f->args.items, f->args.len,
                                &f->run);
    files[k] = (preamble_file){f->args.items, (int)f->args.len, &f->run};
    cuda[ncuda++] = k;
  }
  parse_queue_plan(&p->queue, files, cuda, ncuda);
  free(files);
  free(cuda);
}

static void finished(pool *p, size_t i) {
  pthread_mutex_lock(&p->lock);
  p->run->results[i].done = 1;
  p->ndone++;
  pthread_cond_broadcast(&p->cond);
  pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg) {
  pool *p = arg;
  gm_run *run = p->run;
  for (;;) {
    pthread_mutex_lock(&p->lock);
    size_t k = p->next++;
    pthread_mutex_unlock(&p->lock);
    if (k >= p->count)
      break;
    size_t i = p->files[k];
    double start = gm_timing_start();
    int needs = prepare(run, &run->results[i], &p->prep[i]);
    gm_timing_stop(GM_STAGE_PREPARE, start);
    if (!needs)
      finished(p, i);
    pthread_mutex_lock(&p->lock);
    p->needs_parse[i] = (char)needs;
    if (++p->nprepared == p->count) {
      plan_parses(p);
      pthread_cond_broadcast(&p->cond);
    }
    pthread_mutex_unlock(&p->lock);
  }
  pthread_mutex_lock(&p->lock);
  while (p->nprepared < p->count)
    pthread_cond_wait(&p->cond, &p->lock);
  pthread_mutex_unlock(&p->lock);
  CXIndex index = NULL;
  for (;;) {
    size_t k;
    gm_preamble *pch;
    pthread_mutex_lock(&p->lock);
    enum parse_task task;
    while ((task = parse_queue_next(&p->queue, &k, &pch)) == TASK_WAIT)
      pthread_cond_wait(&p->cond, &p->lock); /* another worker builds the preamble it needs */
    pthread_mutex_unlock(&p->lock);
    if (task == TASK_DONE)
      break;
    if (!index) /* a unit's cursor visits its own declarations, not the preamble's thousands */
      index = clang_createIndex(1, 0);
    if (task == TASK_BUILD) {
      gm_supervised_preamble(1);
      gm_pch_build(index, pch);
      gm_supervised_preamble(0);
      pthread_mutex_lock(&p->lock);
      pthread_cond_broadcast(&p->cond);
      pthread_mutex_unlock(&p->lock);
      continue;
    }
    size_t i = p->to_parse[k];
    gm_supervised_begin(i);
    parse_file(run, index, &run->results[i], &p->prep[i], pch);
    gm_supervised_end(i);
    finished(p, i);
  }
  if (index)
    clang_disposeIndex(index);
  return NULL;
}

/* Starts fn(arg) on --jobs threads, at most `work` and at least one; *n: how many. */
pthread_t *driver_start_threads(gm_run *run, size_t work, void *(*fn)(void *), void *arg,
                                size_t *n) {
  size_t nthreads = (size_t)run->opt->jobs;
  if (nthreads > work)
    nthreads = work;
  if (nthreads < 1)
    nthreads = 1;
  pthread_t *threads = gm_xcalloc(nthreads, sizeof(pthread_t));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64u << 20); /* deep ASTs and models recurse deeply */
  for (size_t i = 0; i < nthreads; i++)
    if (pthread_create(&threads[i], &attr, fn, arg) != 0) {
      fprintf(stderr, GM_PROGRAM ": error: cannot start a worker thread\n");
      exit(GM_EXIT_USAGE);
    }
  pthread_attr_destroy(&attr);
  *n = nthreads;
  return threads;
}

void driver_join_threads(pthread_t *threads, size_t n) {
  for (size_t i = 0; i < n; i++)
    pthread_join(threads[i], NULL);
  free(threads);
}

/* Analyses `files` on the worker threads and returns when all are done. */
void driver_run_pass(gm_run *run, const size_t *files, size_t count, gm_progress *progress) {
  pool p = {.run = run,
            .files = files,
            .count = count,
            .lock = PTHREAD_MUTEX_INITIALIZER,
            .cond = PTHREAD_COND_INITIALIZER};
  p.prep = gm_xcalloc(run->nfiles + 1, sizeof *p.prep);
  p.needs_parse = gm_xcalloc(run->nfiles + 1, 1);
  p.to_parse = gm_xcalloc(run->nfiles + 1, sizeof *p.to_parse);
  size_t nthreads;
  pthread_t *threads = driver_start_threads(run, count, worker, &p, &nthreads);
  for (size_t k = 0; k < count; k++) {
    size_t i = files[k];
    pthread_mutex_lock(&p.lock);
    /* counts finished files, names each file it comes to (a finished one too: load delays it) */
    size_t shown = (size_t)-1;
    for (;; pthread_cond_wait(&p.cond, &p.lock)) {
      if (shown != p.ndone)
        gm_progress_show(progress, shown = p.ndone, run->results[i].path);
      if (run->results[i].done)
        break;
    }
    pthread_mutex_unlock(&p.lock);
  }
  gm_progress_clear(progress);
  driver_join_threads(threads, nthreads);
  free(p.prep);
  free(p.needs_parse);
  free(p.to_parse);
  parse_queue_free(&p.queue);
}

void gm_run_all(gm_run *run, void (*on_done)(gm_run *, size_t, void *), void *ctx) {
  run->cache = gm_cache_open(run->opt, run->cli_only, run->cli_enabled, run->cli_disabled);
  preamble_store_open(run->opt);
  gm_progress progress;
  gm_progress_init(&progress, run->opt->progress, run->nfiles);
  size_t *all = gm_xcalloc(run->nfiles + 1, sizeof *all);
  for (size_t i = 0; i < run->nfiles; i++)
    all[i] = i;
  driver_run_pass(run, all, run->nfiles, &progress);
  free(all);
  /* the files form one program: a second look for files that call into the others, then the
   * program-wide checks (each file alone with --no-whole-program) */
  if (!run->opt->no_whole_program)
    driver_second_pass(run, &progress);
  driver_check_program(run);
  for (size_t i = 0; i < run->nfiles; i++) {
    if (run->opt->verify && run->results[i].parsed)
      verify_file(&run->results[i]);
    on_done(run, i, ctx);
  }
  gm_pch_cleanup();
  gm_cache_close(run->cache, run->opt);
  preamble_store_close(run->opt);
  run->cache = NULL;
}
