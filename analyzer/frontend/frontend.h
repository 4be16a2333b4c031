/* libclang front end: parses one file and builds the function model of every function defined in
 * it (and in the user's own headers, which same-TU summaries need). */
#ifndef GM_FRONTEND_H
#define GM_FRONTEND_H

#include "model/families.h"
#include "model/model.h"

#include <clang-c/Index.h>

typedef struct gm_clang_diag {
  gm_loc loc;
  char *message; /* clang's text, malloc'd */
  int is_fatal;  /* error or fatal */
} gm_clang_diag;

typedef struct gm_parse {
  gm_tu *tu;                   /* NULL when clang produced no AST at all */
  GM_VEC(gm_clang_diag) diags; /* clang errors, reported as notes */
  int error_count;
  gm_str_vec includes; /* every file the parse read (clang_getInclusions), for the result cache */
  /* Parsed again as nvcc parses it (nvcc_fixups.c): the legacy layer's APIs the file uses
   * ("texture<...>, cudaThreadSynchronize"; NULL when it did not need the layer), and where the
   * first parse failed on the first of them (loc.file owned). */
  char *legacy_apis;
  gm_loc legacy_at;
  /* parsed again with -std=c++17: CUDA 13's CCCL refused the flags' older dialect */
  int raised_to_cxx17;
} gm_parse;

/* Parses path with args (compiler flags, no file name). `contents`, if not NULL, is the text to
 * parse in place of the file's (len bytes: the file with its preamble's includes blanked). */
int gm_frontend_parse(CXIndex index, const char *path, const char *const *args, int nargs,
                      const char *contents, size_t len, const gm_table *table,
                      const gm_thresholds *limits, gm_parse *out);
void gm_parse_free(gm_parse *p);

#endif
