#include "frontend/pch.h"

#include "frontend/nvcc_compat.h"
#include "support/timing.h"
#include "support/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pch_entry {
  char *key;
  char *path;          /* NULL when building failed */
  gm_str_vec includes; /* the headers it holds: a parse with it does not list them itself */
} pch_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static GM_VEC(pch_entry *) entries; /* pointers: a caller keeps an entry's include list */
static char *dir;

static char *key_of(const char *const *args, int nargs) {
  gm_strbuf sb = {0};
  for (int i = 0; i < nargs; i++) {
    gm_sb_append(&sb, args[i]);
    gm_sb_appendn(&sb, "\x1f", 1);
  }
  return gm_sb_take(&sb);
}

static void on_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  gm_str_vec *includes = data;
  if (depth == 0)
    return; /* the empty preamble source itself, removed at cleanup */
  CXString name = clang_getFileName(file);
  const char *s = clang_getCString(name);
  if (s && *s && !gm_nvcc_compat_is(s)) /* in memory: nothing on disk for the cache to check */
    GM_PUSH(*includes, gm_xstrdup(s));
  clang_disposeString(name);
}

static char *build(CXIndex index, const char *const *args, int nargs, size_t n,
                   gm_str_vec *includes) {
  if (!dir) {
    const char *tmp = getenv("TMPDIR");
    char *templ = gm_xasprintf("%s/gmemlint-pch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    dir = mkdtemp(templ);
    if (!dir) {
      free(templ);
      return NULL;
    }
  }
  char *src = gm_xasprintf("%s/preamble%zu.cu", dir, n);
  char *out = gm_xasprintf("%s/preamble%zu.pch", dir, n);
  FILE *f = fopen(src, "w");
  if (!f) {
    free(src);
    free(out);
    return NULL;
  }
  fclose(f);
  CXTranslationUnit tu = NULL;
  /* the compat header goes into the PCH like any -include; the key (the flags) names it, so a PCH
   * built with it serves only parses that include it */
  struct CXUnsavedFile compat = gm_nvcc_compat_unsaved();
  enum CXErrorCode rc = clang_parseTranslationUnit2(
      index, src, args, nargs, &compat, 1,
      CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
  int ok = rc == CXError_Success && tu;
  if (ok) {
    /* a preamble with errors (bad include paths, say) would only spread them */
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu) && ok; i++) {
      CXDiagnostic d = clang_getDiagnostic(tu, i);
      ok = clang_getDiagnosticSeverity(d) < CXDiagnostic_Error;
      clang_disposeDiagnostic(d);
    }
  }
  if (ok)
    ok = clang_saveTranslationUnit(tu, out, clang_defaultSaveOptions(tu)) == CXSaveError_None;
  if (ok)
    clang_getInclusions(tu, on_inclusion, includes);
  if (tu)
    clang_disposeTranslationUnit(tu);
  free(src); /* the PCH records the empty source: it stays until cleanup */
  if (!ok) {
    remove(out);
    free(out);
    return NULL;
  }
  return out;
}

const char *gm_pch_for(CXIndex index, const char *const *args, int nargs,
                       const gm_str_vec **includes) {
  char *key = key_of(args, nargs);
  pthread_mutex_lock(&lock); /* held while building: other workers wait for the same PCH */
  const char *path = NULL;
  pch_entry *e = NULL;
  for (size_t i = 0; i < entries.len && !e; i++)
    if (strcmp(entries.items[i]->key, key) == 0)
      e = entries.items[i];
  if (!e) {
    e = gm_xcalloc(1, sizeof *e);
    e->key = key;
    double start = gm_timing_start();
    e->path = build(index, args, nargs, entries.len, &e->includes);
    gm_timing_stop(GM_STAGE_PREAMBLE, start);
    gm_timing_count(GM_STAGE_PREAMBLE);
    GM_PUSH(entries, e);
    key = NULL;
  }
  path = e->path;
  if (includes)
    *includes = &e->includes; /* fixed once built, kept until gm_pch_cleanup */
  pthread_mutex_unlock(&lock);
  free(key);
  return path;
}

void gm_pch_cleanup(void) {
  for (size_t i = 0; i < entries.len; i++) {
    char *src = gm_xasprintf("%s/preamble%zu.cu", dir, i);
    remove(src);
    free(src);
    pch_entry *e = entries.items[i];
    if (e->path)
      remove(e->path);
    free(e->path);
    free(e->key);
    for (size_t k = 0; k < e->includes.len; k++)
      free(e->includes.items[k]);
    GM_VEC_FREE(e->includes);
    free(e);
  }
  GM_VEC_FREE(entries);
  if (dir) {
    rmdir(dir);
    free(dir);
    dir = NULL;
  }
}
