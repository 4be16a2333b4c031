#include "driver/read_problems.h"

#include <stdlib.h>
#include <string.h>

/* `FILE:LINE:COL: ` of a clang error, or `FILE: ` where it has no line. */
static void put_where(FILE *out, gm_loc loc) {
  if (loc.line)
    fprintf(out, "%s:%u:%u: ", loc.file, loc.line, loc.col);
  else
    fprintf(out, "%s: ", loc.file);
}

/* What the errors cost the file's functions: "; 1 of 2 functions holds an error: analysed with
 * what clang could type: lost" (at most a few names), or that none holds one. */
#define NAMES_SHOWN 4
static char *functions_text(const gm_file_result *r, int nothing_analysed) {
  size_t n = r->functions_with_errors.len;
  if (nothing_analysed || !r->functions)
    return gm_xstrdup("");
  if (!n && !r->first_parse_error.loc.line) /* a flag clang refuses: no code is to blame */
    return gm_xstrdup("; the error is in the flags, not in a function");
  if (!n && r->functions == 1)
    return gm_xstrdup("; its only function holds none (the errors are outside it: what it uses "
                      "may be missing)");
  if (!n)
    return gm_xasprintf("; none of its %d functions holds one (the errors are outside them: what "
                        "they use may be missing)",
                        r->functions);
  if (r->functions == 1)
    return gm_xasprintf("; its only function, '%s', holds an error, analysed with what clang "
                        "could type",
                        r->functions_with_errors.items[0]);
  gm_strbuf sb = {0};
  gm_sb_printf(&sb,
               "; %zu of its %d function%s hold%s an error, analysed with what clang could "
               "type: ",
               n, r->functions, r->functions == 1 ? "" : "s", n == 1 ? "s" : "");
  for (size_t k = 0; k < n && k < NAMES_SHOWN; k++)
    gm_sb_printf(&sb, "%s'%s'", k ? ", " : "", r->functions_with_errors.items[k]);
  if (n > NAMES_SHOWN)
    gm_sb_printf(&sb, " and %zu more", n - NAMES_SHOWN);
  return gm_sb_take(&sb);
}

void driver_report_parse_errors(const gm_run *run, gm_file_result *r, const gm_parse *parse,
                                int nothing_parsed, FILE *msg) {
  free((char *)r->first_parse_error.loc.file);
  free(r->first_parse_error.message);
  r->first_parse_error = (gm_related){{0}, NULL};
  for (size_t k = 0; k < r->functions_with_errors.len; k++)
    free(r->functions_with_errors.items[k]);
  r->functions_with_errors.len = 0;
  r->functions = 0;
  if (!parse->diags.len)
    return;
  /* which of the file's functions hold an error: those are analysed with what clang could type
   * (opaque nodes), the others in full */
  for (int i = 0; parse->tu && i < parse->tu->nfuncs; i++) {
    const gm_func *fn = parse->tu->funcs[i];
    if (!fn->in_main_file)
      continue;
    r->functions++;
    for (size_t k = 0; k < parse->diags.len; k++) {
      const gm_loc *at = &parse->diags.items[k].loc;
      if (at->file && fn->loc.file && strcmp(at->file, fn->loc.file) == 0 &&
          at->line >= fn->loc.line && at->line <= fn->end_loc.line) {
        GM_PUSH(r->functions_with_errors, gm_xstrdup(fn->name ? fn->name : "?"));
        break;
      }
    }
  }
  const gm_clang_diag *first = &parse->diags.items[0];
  r->first_parse_error.loc = first->loc;
  r->first_parse_error.loc.file = gm_xstrdup(first->loc.file ? first->loc.file : r->path);
  r->first_parse_error.message = gm_xstrdup(first->message);
  if (!nothing_parsed && !run->opt->verify) { /* the input error said it already */
    char *functions = functions_text(r, 0);
    fprintf(msg, GM_PROGRAM ": warning: %s: %d parse error(s); findings may be incomplete%s\n",
            r->path, parse->error_count, functions);
    free(functions);
  }
  /* the first few of clang's errors say what is wrong; hundreds would bury the findings */
  size_t shown = parse->diags.len;
  if (run->opt->parse_errors_shown >= 0 && shown > (size_t)run->opt->parse_errors_shown)
    shown = (size_t)run->opt->parse_errors_shown;
  for (size_t i = 0; i < shown; i++) {
    const gm_clang_diag *d = &parse->diags.items[i];
    gm_loc at = d->loc;
    if (!at.file)
      at = (gm_loc){.file = r->path};
    put_where(msg, at);
    fprintf(msg, "note: clang: %s\n", d->message);
  }
  if (shown < parse->diags.len)
    fprintf(msg, "%s: note: clang: %zu more error(s) (--show-parse-errors=all prints them)\n",
            r->path, parse->diags.len - shown);
}

void driver_add_read_notices(gm_file_result *r) {
  gm_report added = {0};
  gm_loc whole_file = {.file = r->path};
  if (r->compdb_match == GM_COMPDB_SIMILAR)
    gm_report_notice(&added, "compdb-similar-entry", whole_file, NULL,
                     "no entry in compile_commands.json; using the flags of a similar entry");
  else if (r->compdb_match == GM_COMPDB_DEFAULT)
    gm_report_notice(&added, "compdb-default-flags", whole_file, NULL,
                     "no entry in compile_commands.json; using default flags");
  if (r->parse_errors && r->first_parse_error.message) {
    const gm_related *first = &r->first_parse_error;
    /* at the first error when it is in the file itself; a header's is named in the message */
    gm_loc at = strcmp(first->loc.file, r->path) == 0 ? first->loc : whole_file;
    /* an error with no place (a bad flag) is named by the file alone, as the text output does */
    char *where = first->loc.line
                      ? gm_xasprintf("%s:%u:%u", first->loc.file, first->loc.line, first->loc.col)
                      : gm_xstrdup(first->loc.file);
    char *functions = functions_text(r, r->input_error);
    gm_notice *n = gm_report_notice(&added, "parse-errors", at, NULL,
                                    "%d parse error(s)%s; the first: %s: %s%s", r->parse_errors,
                                    r->input_error ? " and no function could be analysed"
                                                   : "; findings may be incomplete",
                                    where, first->message, functions);
    free(functions);
    free(where);
    n->functions = r->functions;
    for (size_t k = 0; k < r->functions_with_errors.len; k++)
      GM_PUSH(n->functions_with_errors, gm_xstrdup(r->functions_with_errors.items[k]));
    n->count = r->parse_errors;
    n->first.loc = first->loc;
    n->first.loc.file = gm_xstrdup(first->loc.file);
    n->first.message = gm_xstrdup(first->message);
    n->fatal = r->input_error;
  } else if (r->input_error && r->first_error) {
    /* not read, or not analysed (its analysis crashed): said in every format, not only on
     * standard error */
    gm_notice *n = gm_report_notice(&added, "not-analysed", whole_file, NULL, "%s", r->first_error);
    n->fatal = 1;
  }
  if (!added.notices.len)
    return;
  for (size_t i = 0; i < r->report.notices.len; i++)
    GM_PUSH(added.notices, r->report.notices.items[i]);
  GM_VEC_FREE(r->report.notices);
  r->report.notices = added.notices;
}

/* One line for the files with no compile-database entry of one kind: the file itself when it is
 * the only one, else how many, with the first as an example. */
static void print_missing_entries(FILE *err, const gm_run *run, enum gm_compdb_match match,
                                  const char *what) {
  size_t count = 0;
  const char *example = NULL;
  for (size_t i = 0; i < run->nfiles; i++)
    if (run->results[i].compdb_match == (int)match && !count++)
      example = run->results[i].path;
  if (count == 1)
    fprintf(err, GM_PROGRAM ": warning: %s: no entry in compile_commands.json; using %s\n", example,
            what);
  else if (count > 1)
    fprintf(err,
            GM_PROGRAM ": warning: %zu files have no entry in compile_commands.json; used %s "
                       "(e.g. %s)\n",
            count, what, example);
}

/* The header in clang's "'foo.h' file not found" (and "... with <angled> include; ..."), or
 * NULL when the error is another. */
static char *missing_header(const char *message) {
  const char *end = message[0] == '\'' ? strstr(message, "' file not found") : NULL;
  return end ? gm_xasprintf("%.*s", (int)(end - message - 1), message + 1) : NULL;
}

/* A header not found: where the include path should have come from. */
static void print_include_hint(FILE *err, const gm_run *run, const gm_file_result *r,
                               const char *header) {
  if (!run->db)
    fprintf(err,
            GM_PROGRAM ": note: '%s' was not found: give the build's include paths (-p build/ "
                       "reads its compile_commands.json, or -- -I DIR)\n",
            header);
  else if (r->compdb_match == GM_COMPDB_ENTRY)
    fprintf(err,
            GM_PROGRAM ": note: '%s' was not found: the compile database's flags for %s lack "
                       "its directory (add it with -- -I DIR)\n",
            header, r->path);
  else
    fprintf(err,
            GM_PROGRAM ": note: '%s' was not found: %s has no entry in the compile database "
                       "and %s lack its directory (add it with -- -I DIR)\n",
            header, r->path,
            r->compdb_match == GM_COMPDB_SIMILAR ? "the flags of a similar entry"
                                                 : "the default flags");
}

/* A file parsed with -std=c++17 in place of its flags' dialect says so (frontend.h). */
static void report_raised_dialect(gm_file_result *r, const gm_parse *parse) {
  if (parse->raised_to_cxx17)
    gm_report_notice(&r->report, "dialect-raised", (gm_loc){r->path, 0, 0}, NULL,
                     "%s: CUDA 13's Thrust, CUB and libcu++ (CCCL) need C++17 and refuse the "
                     "dialect the flags give (-std=c++14 or older; nvcc 13 refuses it too): "
                     "parsed with -std=c++17; build with -std=c++17 (CMake: "
                     "CMAKE_CUDA_STANDARD 17)",
                     r->path);
}

/* A file parsed with the legacy layer's declarations says so (frontend.h), at the first use. */
static void report_legacy_api(gm_file_result *r, const gm_parse *parse) {
  if (!parse->legacy_apis)
    return;
  gm_loc at = parse->legacy_at;
  if (!at.file || !*at.file)
    at = (gm_loc){r->path, 1, 1};
  gm_report_notice(&r->report, "legacy-api", at, NULL,
                   "%s: uses APIs removed from the CUDA toolkit (%s); parsed with gmemlint's "
                   "declarations of the CUDA 11 API",
                   r->path, parse->legacy_apis);
}

void driver_add_parse_notices(gm_file_result *r, const gm_parse *parse) {
  report_legacy_api(r, parse);
  report_raised_dialect(r, parse);
}

gm_analysis_summary driver_analysis_summary(const gm_run *run) {
  gm_analysis_summary s = {0};
  for (size_t i = 0; i < run->nfiles; i++) {
    const gm_file_result *r = &run->results[i];
    s.files++;
    if (r->input_error)
      s.files_not_analysed++;
    else if (r->parse_errors)
      s.files_with_errors++;
    if (!r->input_error)
      s.functions_with_errors += r->functions_with_errors.len;
    for (size_t k = 0; k < r->report.notices.len; k++)
      s.analyses_cut_short += strcmp(r->report.notices.items[k].kind, "cut-short") == 0;
  }
  s.files_analysed = s.files - s.files_not_analysed;
  return s;
}

size_t gm_print_read_summary(FILE *err, const gm_run *run) {
  print_missing_entries(err, run, GM_COMPDB_SIMILAR, "the flags of a similar entry");
  print_missing_entries(err, run, GM_COMPDB_DEFAULT, "default flags");
  size_t count = 0;
  const gm_file_result *first = NULL;
  for (size_t i = 0; i < run->nfiles; i++)
    if (run->results[i].parse_errors && run->results[i].first_parse_error.message && !count++)
      first = &run->results[i];
  if (!first || run->opt->verify) /* --verify reports a file's parse errors as a problem */
    return count;
  const gm_related *e = &first->first_parse_error;
  fprintf(err, GM_PROGRAM ": warning: %zu of %zu file%s had parse errors; the first: ", count,
          run->nfiles, run->nfiles == 1 ? "" : "s");
  put_where(err, e->loc);
  fprintf(err, "%s", e->message);
  if (strcmp(e->loc.file, first->path) != 0)
    fprintf(err, " (parsing %s)", first->path);
  gm_analysis_summary s = driver_analysis_summary(run);
  if (s.functions_with_errors)
    fprintf(err, "; %zu function%s, analysed with what clang could type", s.functions_with_errors,
            s.functions_with_errors == 1 ? " holds an error" : "s hold errors");
  fputc('\n', err);
  char *header = missing_header(e->message);
  if (header)
    print_include_hint(err, run, first, header);
  free(header);
  return count;
}
