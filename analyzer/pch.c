#include "pch.h"

#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pch_entry {
  char *key;
  char *path; /* NULL when building failed */
} pch_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static GM_VEC(pch_entry) entries;
static char *dir;

static char *key_of(const char *const *args, int nargs) {
  gm_strbuf sb = {0};
  for (int i = 0; i < nargs; i++) {
    gm_sb_append(&sb, args[i]);
    gm_sb_appendn(&sb, "\x1f", 1);
  }
  return gm_sb_take(&sb);
}

static char *build(CXIndex index, const char *const *args, int nargs, size_t n) {
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
  enum CXErrorCode rc = clang_parseTranslationUnit2(
      index, src, args, nargs, NULL, 0,
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

const char *gm_pch_for(CXIndex index, const char *const *args, int nargs) {
  char *key = key_of(args, nargs);
  pthread_mutex_lock(&lock); /* held while building: other workers wait for the same PCH */
  const char *path = NULL;
  int found = 0;
  for (size_t i = 0; i < entries.len && !found; i++)
    if (strcmp(entries.items[i].key, key) == 0) {
      path = entries.items[i].path;
      found = 1;
    }
  if (!found) {
    pch_entry e = {key, build(index, args, nargs, entries.len)};
    GM_PUSH(entries, e);
    path = e.path;
    key = NULL;
  }
  pthread_mutex_unlock(&lock);
  free(key);
  return path;
}

void gm_pch_cleanup(void) {
  for (size_t i = 0; i < entries.len; i++) {
    char *src = gm_xasprintf("%s/preamble%zu.cu", dir, i);
    remove(src);
    free(src);
    if (entries.items[i].path)
      remove(entries.items[i].path);
    free(entries.items[i].path);
    free(entries.items[i].key);
  }
  GM_VEC_FREE(entries);
  if (dir) {
    rmdir(dir);
    free(dir);
    dir = NULL;
  }
}
