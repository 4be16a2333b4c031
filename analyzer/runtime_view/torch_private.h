/* Private to the PyTorch view's reader (torch_load.c, torch_snapshot.c): the schema checker
 * both files use and the snapshot reader. */
#ifndef GM_TORCH_PRIVATE_H
#define GM_TORCH_PRIVATE_H

#include "runtime_view/torch_view.h"

#include <jansson.h>

enum tv_type {
  TV_UINT,
  TV_INT,
  TV_I32,
  TV_STR,
  TV_BOOL,
  TV_ARR,
  TV_OBJ,
  TV_STR_OR_NULL,
  TV_UINT_OR_NULL,
  TV_INT_OR_NULL,
  TV_ANY
};

typedef struct tv_field {
  const char *name;
  enum tv_type type;
  int required;
} tv_field;

typedef struct tv_reader {
  const char *path; /* the file named in messages */
  char *err;
  size_t errlen;
} tv_reader;

/* "PATH: message" into r->err; returns 0. */
int tv_bad(tv_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Checks obj against fields; where names it in messages ("steps[3]"). */
int tv_check(tv_reader *r, const json_t *obj, const char *where, const tv_field *fields, size_t n);
uint64_t tv_u(const json_t *o, const char *key);
int64_t tv_i(const json_t *o, const char *key);

/* The interned copy of s in v's names (NULL for NULL). */
const char *tv_intern(gm_torch_view *v, const char *s);

/* Reads snapshot file s->path (named s->file) into s. Returns 1, or 0 with the error in err;
 * a missing file sets *missing and returns 0. */
int tv_snapshot_read(gm_torch_view *v, gm_torch_snapshot *s, char *err, size_t errlen,
                     int *missing);
void tv_snapshot_free(gm_torch_snapshot *s);

#endif
