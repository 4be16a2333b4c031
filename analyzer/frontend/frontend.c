/* The front end's entry point (frontend.h): parses one translation unit, keeps clang's errors and
 * the files it read, and builds the model of every function defined in it. */
#include "frontend/frontend.h"

#include "frontend/build.h"
#include "frontend/cuda_wrapper.h"
#include "frontend/legacy_api.h"
#include "frontend/nvcc_compat.h"
#include "frontend/nvcc_fixups.h"
#include "frontend/nvcc_rewrite.h"
#include "support/timing.h"

#include <stdlib.h>
#include <string.h>

struct collect_ctx {
  builder *b;
  GM_VEC(gm_func *) funcs;
};

/* An implicit instantiation of a function template or of a class template's member: clang hands
 * them to the unit's top-level declarations, at the location of the code they were made from
 * (the template, or the out-of-line definition of the member), which is modelled as written. An
 * explicit specialization has a location of its own. */
static int is_implicit_instantiation(CXCursor c) {
  CXCursor pattern = clang_getSpecializedCursorTemplate(c);
  if (clang_Cursor_isNull(pattern))
    return 0;
  CXSourceLocation at = clang_getCursorLocation(c);
  if (clang_equalLocations(at, clang_getCursorLocation(pattern)))
    return 1;
  CXCursor def = clang_getCursorDefinition(pattern);
  return !clang_Cursor_isNull(def) && clang_equalLocations(at, clang_getCursorLocation(def));
}

static enum CXChildVisitResult decl_visitor(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  struct collect_ctx *ctx = data;
  CXSourceLocation l = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(l))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (fe_is_function_kind(k) && k != CXCursor_LambdaExpr) {
    if (clang_isCursorDefinition(c) && !is_implicit_instantiation(c)) {
      gm_func *fn = fe_build_function(ctx->b, c);
      if (fn)
        GM_PUSH(ctx->funcs, fn);
      for (size_t i = 0; i < ctx->b->lambdas.len; i++)
        GM_PUSH(ctx->funcs, ctx->b->lambdas.items[i]);
      ctx->b->lambdas.len = 0;
    }
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_Namespace || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
      k == CXCursor_ClassTemplate || k == CXCursor_LinkageSpec || k == CXCursor_UnionDecl ||
      k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnexposedDecl)
    return CXChildVisit_Recurse;
  return CXChildVisit_Continue;
}

struct inclusion_ctx {
  gm_parse *out;
  builder *b;
  GM_VEC(gm_include_site) sites;
};

static void on_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  struct inclusion_ctx *c = data;
  CXString name = clang_getFileName(file);
  const char *s = clang_getCString(name);
  if (s && *s && !gm_nvcc_compat_is(s)) { /* in memory: nothing on disk for the cache to check */
    GM_PUSH(c->out->includes, gm_xstrdup(s));
    /* the stack runs from the includer out to the main file: its last entry is in the main file */
    if (depth > 0 && clang_Location_isFromMainFile(stack[depth - 1])) {
      gm_include_site site = {fe_arena_cxstring(c->b, clang_getFileName(file)),
                              fe_loc_of_location(c->b, stack[depth - 1])};
      GM_PUSH(c->sites, site);
    }
  }
  clang_disposeString(name);
}

static CXTranslationUnit parse_tu(CXIndex index, const char *path, const char *const *args,
                                  int nargs, struct CXUnsavedFile *unsaved, unsigned nunsaved) {
  CXTranslationUnit tu = NULL;
  /* Incomplete: clang stops at the end of the file without instantiating the function templates
   * the file used (a third of a typical parse): the model is of the code as written, templates
   * included, so an instantiation's body is never read, and errors only an instantiation would
   * find (or CUDA's deferred host/device checks) are not the file's parse errors here */
  unsigned options = CXTranslationUnit_KeepGoing |
                     CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles |
                     CXTranslationUnit_Incomplete;
  double parse_start = gm_timing_start();
  enum CXErrorCode rc =
      clang_parseTranslationUnit2(index, path, args, nargs, unsaved, nunsaved, options, &tu);
  gm_timing_stop(GM_STAGE_PARSE, parse_start);
  gm_timing_count(GM_STAGE_PARSE);
  return rc == CXError_Success ? tu : NULL;
}

static unsigned error_count(CXTranslationUnit tu) {
  unsigned n = 0, ndiag = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < ndiag; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    n += clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
    clang_disposeDiagnostic(d);
  }
  return n;
}

static int is_cuda_parse(const char *const *args, int nargs) {
  for (int i = 0; i + 1 < nargs; i++)
    if (strcmp(args[i], "-x") == 0 && strcmp(args[i + 1], "cuda") == 0)
      return 1;
  return 0;
}

/* Whether CUDA 13's CCCL (Thrust, CUB, libcu++) refused the dialect: an #error in each of its
 * libraries when the flags give one before C++17. */
static int dialect_refused(CXTranslationUnit tu) {
  int refused = 0;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !refused; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXString s = clang_getDiagnosticSpelling(d);
    const char *m = clang_getCString(s);
    refused = m && strstr(m, "requires at least C++") && strstr(m, "CCCL_IGNORE_DEPRECATED");
    clang_disposeString(s);
    clang_disposeDiagnostic(d);
  }
  return refused;
}

/* A CUDA file clang rejected in part is parsed again as nvcc reads it (nvcc_fixups.h): its
 * rewritten files in memory, with the `$` macro the rewrites use, the legacy layer where the
 * errors named its APIs, and GNU's `typeof` where they named it. Any other file (host C++ that
 * calls the runtime API) is parsed again only with the legacy layer, where the errors named its
 * APIs. The second parse is kept when it has fewer errors. */
static CXTranslationUnit reparse_as_nvcc(CXIndex index, CXTranslationUnit tu, unsigned errors,
                                         const char *path, const char *const *args, int nargs,
                                         const struct CXUnsavedFile *unsaved, unsigned nunsaved,
                                         const char *contents, size_t len, gm_parse *out) {
  gm_nvcc_fixups fx;
  if (!gm_nvcc_fixups_find(tu, path, contents, len, is_cuda_parse(args, nargs), &fx)) {
    gm_nvcc_fixups_free(&fx);
    return tu;
  }
  const char **args2 = gm_xcalloc((size_t)nargs + 6, sizeof(char *));
  memcpy(args2, args, sizeof(char *) * (size_t)nargs);
  int nargs2 = nargs;
  struct CXUnsavedFile *unsaved2 =
      gm_xcalloc(nunsaved + fx.files.len + 3, sizeof(struct CXUnsavedFile));
  int main_rewritten = 0;
  for (size_t i = 0; i < fx.files.len; i++)
    main_rewritten |= strcmp(fx.files.items[i].Filename, path) == 0;
  unsigned n = 0;
  for (unsigned i = 0; i < nunsaved; i++) /* the main file's text as given (last), or rewritten */
    if (!(contents && main_rewritten && i == nunsaved - 1))
      unsaved2[n++] = unsaved[i];
  for (size_t i = 0; i < fx.files.len; i++)
    unsaved2[n++] = fx.files.items[i];
  if (fx.rewrites) {
    args2[nargs2++] = "-include";
    args2[nargs2++] = GM_NVCC_REWRITE_PATH;
    unsaved2[n++] = (struct CXUnsavedFile){GM_NVCC_REWRITE_PATH, gm_nvcc_rewrite_text,
                                           strlen(gm_nvcc_rewrite_text)};
  }
  if (fx.gnu_keywords) {
    args2[nargs2++] = "-include";
    args2[nargs2++] = GM_NVCC_GNU_KEYWORDS_PATH;
    unsaved2[n++] = (struct CXUnsavedFile){GM_NVCC_GNU_KEYWORDS_PATH, gm_nvcc_gnu_keywords_text,
                                           strlen(gm_nvcc_gnu_keywords_text)};
  }
  if (fx.legacy.len) {
    args2[nargs2++] = "-include";
    args2[nargs2++] = GM_LEGACY_API_PATH;
    unsaved2[n++] = (struct CXUnsavedFile){GM_LEGACY_API_PATH, gm_cuda11_legacy_text,
                                           strlen(gm_cuda11_legacy_text)};
  }
  CXTranslationUnit again = parse_tu(index, path, args2, nargs2, unsaved2, n);
  if (again && error_count(again) < errors) {
    clang_disposeTranslationUnit(tu);
    tu = again;
    if (fx.legacy.len) {
      gm_strbuf sb = {0};
      for (size_t i = 0; i < fx.legacy.len; i++)
        gm_sb_printf(&sb, "%s%s", i ? ", " : "", fx.legacy.items[i]);
      out->legacy_apis = gm_sb_take(&sb);
      out->legacy_at = (gm_loc){fx.legacy_file, fx.legacy_line, fx.legacy_col};
      fx.legacy_file = NULL;
    }
  } else if (again) {
    clang_disposeTranslationUnit(again);
  }
  free(args2);
  free(unsaved2);
  gm_nvcc_fixups_free(&fx);
  return tu;
}

int gm_frontend_parse(CXIndex index, const char *path, const char *const *args, int nargs,
                      const char *contents, size_t len, const gm_table *table,
                      const gm_thresholds *limits, gm_parse *out) {
  memset(out, 0, sizeof *out);
  /* what the driver's -include names, and the copy of clang's wrapper where it names that */
  struct CXUnsavedFile unsaved[3] = {gm_nvcc_compat_unsaved()};
  unsigned nunsaved = 1;
  nunsaved += gm_cuda_wrapper_unsaved(&unsaved[nunsaved]);
  if (contents)
    unsaved[nunsaved++] = (struct CXUnsavedFile){path, contents, (unsigned long)len};
  CXTranslationUnit tu = parse_tu(index, path, args, nargs, unsaved, nunsaved);
  if (!tu)
    return -1;
  unsigned errors = error_count(tu);
  /* first the dialect CCCL needs: -std=c++17 last (the last -std wins), without a preamble
   * built in the old one, the file read whole; the nvcc fixups then read that parse's errors */
  const char **raised = NULL;
  if (errors && dialect_refused(tu)) {
    raised = gm_xcalloc((size_t)nargs + 2, sizeof(char *));
    int nraised = 0;
    for (int i = 0; i < nargs; i++) {
      if (strcmp(args[i], "-include-pch") == 0 && i + 1 < nargs) {
        i++;
        continue;
      }
      raised[nraised++] = args[i];
    }
    raised[nraised++] = "-std=c++17";
    unsigned whole = contents ? nunsaved - 1 : nunsaved; /* the main file's own text */
    CXTranslationUnit again = parse_tu(index, path, raised, nraised, unsaved, whole);
    if (again && error_count(again) < errors) {
      clang_disposeTranslationUnit(tu);
      tu = again;
      errors = error_count(tu);
      args = raised;
      nargs = nraised;
      nunsaved = whole;
      contents = NULL;
      len = 0;
      out->raised_to_cxx17 = 1;
    } else if (again) {
      clang_disposeTranslationUnit(again);
    }
  }
  if (errors)
    tu = reparse_as_nvcc(index, tu, errors, path, args, nargs, unsaved, nunsaved, contents, len,
                         out);
  free(raised);
  double model_start = gm_timing_start();
  builder b = {0};
  b.arena = gm_arena_new();
  b.table = table;
  b.limits = limits;
  b.tu = tu;
  unsigned ndiag = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < ndiag; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error) {
      gm_clang_diag cd = {0};
      cd.loc = fe_loc_of_location(&b, clang_getDiagnosticLocation(d));
      CXString s = clang_getDiagnosticSpelling(d);
      cd.message = gm_xstrdup(clang_getCString(s));
      clang_disposeString(s);
      cd.is_fatal = sev == CXDiagnostic_Fatal;
      GM_PUSH(out->diags, cd);
      out->error_count++;
    }
    clang_disposeDiagnostic(d);
  }
  b.has_errors = out->error_count > 0;
  struct collect_ctx ctx = {&b, {0}};
  clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visitor, &ctx);
  gm_tu *model = gm_arena_alloc(b.arena, sizeof *model);
  model->arena = b.arena;
  model->path = gm_arena_strdup(b.arena, path);
  model->nfuncs = (int)ctx.funcs.len;
  model->funcs = gm_arena_alloc(b.arena, sizeof(gm_func *) * (ctx.funcs.len ? ctx.funcs.len : 1));
  if (ctx.funcs.len)
    memcpy(model->funcs, ctx.funcs.items, sizeof(gm_func *) * ctx.funcs.len);
  gm_tu_index_calls(model);
  GM_VEC_FREE(ctx.funcs);
  GM_VEC_FREE(b.vars);
  GM_VEC_FREE(b.scoped);
  GM_VEC_FREE(b.var_decls);
  free(b.var_table);
  GM_VEC_FREE(b.lambdas);
  for (size_t i = 0; i < b.captures.len; i++)
    GM_VEC_FREE(b.captures.items[i].refs);
  GM_VEC_FREE(b.captures);
  GM_VEC_FREE(b.closures);
  struct inclusion_ctx inclusions = {out, &b, {0}};
  clang_getInclusions(tu, on_inclusion, &inclusions);
  model->ninclude_sites = inclusions.sites.len;
  model->include_sites =
      gm_arena_alloc(b.arena, sizeof(gm_include_site) * (inclusions.sites.len + 1));
  if (inclusions.sites.len)
    memcpy(model->include_sites, inclusions.sites.items,
           sizeof(gm_include_site) * inclusions.sites.len);
  GM_VEC_FREE(inclusions.sites);
  gm_timing_stop(GM_STAGE_MODEL, model_start);
  double dispose_start = gm_timing_start(); /* clang's own clean-up: part of its parse's cost */
  clang_disposeTranslationUnit(tu);
  gm_timing_stop(GM_STAGE_PARSE, dispose_start);
  out->tu = model;
  return 0;
}

void gm_parse_free(gm_parse *p) {
  if (p->tu)
    gm_arena_free(p->tu->arena);
  for (size_t i = 0; i < p->diags.len; i++)
    free(p->diags.items[i].message);
  GM_VEC_FREE(p->diags);
  for (size_t i = 0; i < p->includes.len; i++)
    free(p->includes.items[i]);
  GM_VEC_FREE(p->includes);
  free(p->legacy_apis);
  free((char *)p->legacy_at.file);
  memset(p, 0, sizeof *p);
}
