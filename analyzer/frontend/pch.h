/* A shared precompiled preamble: in CUDA mode clang force-includes its CUDA runtime wrapper
 * (cuda_runtime.h and the rest), which is nearly all of the parse time of a typical .cu file.
 * Built once per distinct set of flags, it makes each further file about ten times cheaper. */
#ifndef GM_PCH_H
#define GM_PCH_H

#include "frontend/nvcc_compat.h" /* the header every CUDA parse, and so every PCH, includes */
#include "support/util.h"

#include <clang-c/Index.h>

/* The PCH for these parser flags, building it on first use; NULL if it cannot be built (the
 * caller then parses without it). Thread-safe. The files are removed by gm_pch_cleanup().
 * `includes`, if not NULL, gets the files the PCH was built from (a parse that uses it does not
 * list them among its own inclusions); valid until gm_pch_cleanup(). */
const char *gm_pch_for(CXIndex index, const char *const *args, int nargs,
                       const gm_str_vec **includes);
void gm_pch_cleanup(void);

#endif
