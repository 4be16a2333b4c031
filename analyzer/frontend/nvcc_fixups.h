/* What a second parse needs to read a file as nvcc does, found in the first parse's errors: the
 * files (the main file and the project's headers, never a system header) that clang rejected and
 * the rewrites of nvcc_rewrite.h change, the APIs of the legacy layer (legacy_api.h) the
 * errors name, and whether GNU keywords are needed. frontend.c parses again with them and keeps the
 * parse with fewer errors. */
#ifndef GM_NVCC_FIXUPS_H
#define GM_NVCC_FIXUPS_H

#include "support/util.h"

#include <clang-c/Index.h>

typedef struct gm_nvcc_fixups {
  GM_VEC(struct CXUnsavedFile) files; /* rewritten texts: names and contents malloc'd */
  unsigned rewrites;                  /* GM_REWRITE_* bits, over every file */
  gm_str_vec legacy;                  /* the legacy layer's APIs named, first named first */
  char *legacy_file;                  /* where the first of them was named */
  unsigned legacy_line, legacy_col;
  int gnu_keywords; /* an error named `typeof` (GNU's, nvcc takes it) */
  /* of each of files: whether its text was changed, by nvcc_rewrite.h's rewrites or by an edit
   * at an error's place (nvcc_fixups.c: a definition's __host__ __device__ its declaration
   * lacks, a specialisation whose primary's attributes differ, a default argument repeated out
   * of line, the #include of a header CUDA 12 removed); internal */
  GM_VEC(unsigned char) changed;
} gm_nvcc_fixups;

/* Reads tu's errors. `contents` (len bytes) is the main file's text as parsed, NULL for the
 * file's own. nvcc_dialect: a CUDA parse, which may need the rewrites and GNU keywords; any other
 * (host C++ read by GCC, which knows no nvcc dialect) looks only for the legacy layer's APIs.
 * Returns 1 when there is something to parse again with. */
int gm_nvcc_fixups_find(CXTranslationUnit tu, const char *path, const char *contents, size_t len,
                        int nvcc_dialect, gm_nvcc_fixups *fx);
void gm_nvcc_fixups_free(gm_nvcc_fixups *fx);

#endif
