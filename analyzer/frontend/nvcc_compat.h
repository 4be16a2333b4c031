/* What nvcc gives a CUDA translation unit that clang's CUDA wrapper headers do not: a header held
 * in the executable (so nothing depends on a file that may be missing after install), handed to
 * libclang as an unsaved file at a fixed virtual path and force-included into every CUDA parse
 * (the driver adds GM_NVCC_COMPAT_ARGS after `-x cuda`). It is a system header: nothing in it is a
 * finding, and its functions borrow their arguments. */
#ifndef GM_NVCC_COMPAT_H
#define GM_NVCC_COMPAT_H

#include <clang-c/Index.h>

/* The virtual path: no file there is read; the unsaved file below supplies the text. */
#define GM_NVCC_COMPAT_PATH "/__gmemlint__/nvcc_compat.h"

/* The header's text, NUL-terminated. */
extern const char gm_nvcc_compat_text[];

/* The unsaved file to pass to every clang_parseTranslationUnit2 that may see the `-include`
 * (harmless where nothing includes it). */
struct CXUnsavedFile gm_nvcc_compat_unsaved(void);

/* Whether path is one of gmemlint's virtual headers (this one, the copy of clang's CUDA wrapper,
 * the rewrites' and the legacy layer's, all under /__gmemlint__/): no file on disk, so the result
 * cache must not list it among the files a parse read (its text is part of this executable, or
 * derived from clang's own headers, already in every key). */
int gm_nvcc_compat_is(const char *path);

/* libclang's resource directory (its builtin headers), found once by letting libclang itself
 * resolve <stddef.h>; NULL if that fails. libclang hands it to the compiler but not to the driver,
 * which therefore leaves clang's CUDA wrappers of <new>, <cmath>, <algorithm>, <complex> (device
 * operator new and delete, device overloads) off the include path; `-resource-dir` with this
 * directory puts them back where `clang -x cuda` has them. Thread-safe. */
const char *gm_clang_resource_dir(void);

#endif
