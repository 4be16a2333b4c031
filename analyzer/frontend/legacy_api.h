/* The legacy layer: gmemlint's declarations of the CUDA runtime API removed since CUDA 11
 * (cuda11_legacy.cuh, held in the executable), force-included from a virtual path into the parse
 * of a file whose first parse failed on those APIs (frontend.c), which is then reported in a
 * notice. Files that do not need it never see it. */
#ifndef GM_LEGACY_API_H
#define GM_LEGACY_API_H

#include <stddef.h>

#define GM_LEGACY_API_PATH "/__gmemlint__/cuda11_legacy.h"

/* The header's text, NUL-terminated (generated from cuda11_legacy.cuh). */
extern const char gm_cuda11_legacy_text[];

/* The removed API a clang error message is about ("no template named 'texture'", "use of
 * undeclared identifier 'cudaThreadSynchronize'", "no member named 'clockRate' in
 * 'cudaDeviceProp'"), as the notice names it ("texture<...>", "cudaThreadSynchronize",
 * "cudaDeviceProp::clockRate"), written to name[0..size); 0 when the error is about none. */
int gm_legacy_api_named(const char *message, char *name, size_t size);

#endif
