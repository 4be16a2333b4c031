/* Finding what a file needs to parse as nvcc parses it (nvcc_fixups.h). */
#include "frontend/nvcc_fixups.h"

#include "frontend/legacy_api.h"
#include "frontend/nvcc_compat.h"
#include "frontend/nvcc_rewrite.h"

#include <stdlib.h>
#include <string.h>

/* Rewrites a file an error is in, once per file: the main file's text as parsed, a project
 * header's from disk. A system header, or one of gmemlint's own in memory, is left alone. */
static void rewrite_file(CXTranslationUnit tu, CXFile file, const char *path, const char *contents,
                         size_t len, gm_str_vec *seen, gm_nvcc_fixups *fx) {
  if (!file || clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, file, 0)))
    return;
  CXString s = clang_getFileName(file);
  const char *name = clang_getCString(s);
  if (name && *name && !gm_nvcc_compat_is(name) && !gm_str_vec_has(seen, name)) {
    GM_PUSH(*seen, gm_xstrdup(name));
    CXFile main_file = clang_getFile(tu, path);
    int is_main = main_file && clang_File_isEqual(file, main_file);
    size_t n = 0;
    char *text = NULL;
    if (is_main && contents) {
      text = gm_xmalloc(len + 1);
      memcpy(text, contents, len);
      text[n = len] = 0;
    } else {
      text = gm_read_file(is_main ? path : name, &n);
    }
    unsigned what = text ? gm_nvcc_rewrite(text, n) : 0;
    if (what) {
      struct CXUnsavedFile f = {gm_xstrdup(is_main ? path : name), text, (unsigned long)n};
      GM_PUSH(fx->files, f);
      fx->rewrites |= what;
    } else {
      free(text);
    }
  }
  clang_disposeString(s);
}

/* The file the error is reported in, and the one its text comes from (a macro's definition). */
static void rewrite_files_of(CXTranslationUnit tu, CXSourceLocation at, const char *path,
                             const char *contents, size_t len, gm_str_vec *seen,
                             gm_nvcc_fixups *fx) {
  CXFile expansion = NULL, spelling = NULL;
  clang_getExpansionLocation(at, &expansion, NULL, NULL, NULL);
  clang_getSpellingLocation(at, &spelling, NULL, NULL, NULL);
  rewrite_file(tu, expansion, path, contents, len, seen, fx);
  if (spelling && (!expansion || !clang_File_isEqual(spelling, expansion)))
    rewrite_file(tu, spelling, path, contents, len, seen, fx);
}

static void note_legacy(CXDiagnostic d, const char *message, gm_nvcc_fixups *fx) {
  char name[128];
  if (!gm_legacy_api_named(message, name, sizeof name) || gm_str_vec_has(&fx->legacy, name))
    return;
  GM_PUSH(fx->legacy, gm_xstrdup(name));
  if (fx->legacy_file)
    return;
  CXFile file;
  clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &fx->legacy_line,
                             &fx->legacy_col, NULL);
  CXString s = clang_getFileName(file);
  fx->legacy_file = gm_xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
}

int gm_nvcc_fixups_find(CXTranslationUnit tu, const char *path, const char *contents, size_t len,
                        int nvcc_dialect, gm_nvcc_fixups *fx) {
  memset(fx, 0, sizeof *fx);
  gm_str_vec seen = {0};
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_getDiagnosticSpelling(d);
      note_legacy(d, clang_getCString(s), fx);
      /* only where needed: `int typeof;` is a valid member under -std=c++17 */
      fx->gnu_keywords |= nvcc_dialect && strstr(clang_getCString(s), "'typeof'") != NULL;
      clang_disposeString(s);
      if (nvcc_dialect)
        rewrite_files_of(tu, clang_getDiagnosticLocation(d), path, contents, len, &seen, fx);
    }
    clang_disposeDiagnostic(d);
  }
  for (size_t i = 0; i < seen.len; i++)
    free(seen.items[i]);
  GM_VEC_FREE(seen);
  return fx->files.len > 0 || fx->legacy.len > 0 || fx->gnu_keywords;
}

void gm_nvcc_fixups_free(gm_nvcc_fixups *fx) {
  for (size_t i = 0; i < fx->files.len; i++) {
    free((char *)fx->files.items[i].Filename);
    free((char *)fx->files.items[i].Contents);
  }
  GM_VEC_FREE(fx->files);
  for (size_t i = 0; i < fx->legacy.len; i++)
    free(fx->legacy.items[i]);
  GM_VEC_FREE(fx->legacy);
  free(fx->legacy_file);
  memset(fx, 0, sizeof *fx);
}
