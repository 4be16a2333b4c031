/* A project header that shares a toolkit header's name. clang's CUDA mode force-includes its
 * __clang_cuda_runtime_wrapper.h, which includes the toolkit's headers with quotes ("cuda.h",
 * "driver_types.h", "host_defines.h", ...). The wrapper lives in clang's resource directory, so
 * those names are looked up on the -I path (the project's directories) before the toolkit's
 * (-isystem), and a project's own cuda.h replaces the toolkit's in every CUDA file. nvcc never
 * meets this: its forced cuda_runtime.h is the toolkit's own, whose quoted includes find their
 * siblings in its own directory first, and it does not include cuda.h at all.
 *
 * When an include directory of the flags holds such a name, the driver parses with clang's
 * wrapper off (-nocudainc) and this copy of it force-included instead, from a virtual path: its
 * text read from clang's resource directory at run time, each quoted include naming the file
 * clang or the toolkit has by its absolute path. The program's own `#include "cuda.h"` still
 * finds the project's header, as with nvcc. */
#ifndef GM_CUDA_WRAPPER_H
#define GM_CUDA_WRAPPER_H

#include <clang-c/Index.h>

#include <stddef.h>

#define GM_CUDA_WRAPPER_PATH "/__gmemlint__/cuda_runtime_wrapper.h"

/* Whether a directory the flags args[0..n) search before the toolkit (-I, -iquote, -isystem)
 * holds a header the wrapper includes from the toolkit at cuda_path; builds the copy (once per
 * process) when so. 0 when clang's wrapper cannot be read (the parse then goes as before). */
int gm_cuda_wrapper_needed(char *const *args, size_t n, const char *cuda_path);

/* The copy as an unsaved file, once gm_cuda_wrapper_needed has built it; 0 before. */
int gm_cuda_wrapper_unsaved(struct CXUnsavedFile *out);

#endif
