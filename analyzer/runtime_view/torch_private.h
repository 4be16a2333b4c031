/* Private to the PyTorch view's reader (torch_load.c, torch_snapshot.c): the helpers both
 * files use beside the schema checker (json_schema.h), and the snapshot reader. */
#ifndef GM_TORCH_PRIVATE_H
#define GM_TORCH_PRIVATE_H

#include "runtime_view/json_schema.h"
#include "runtime_view/torch_view.h"

#include <jansson.h>

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
