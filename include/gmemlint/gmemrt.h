/* gmemrt.h: the public API of libgmemrt, gmemlint's runtime. Usable from C and C++.
 *
 * Programs may call these whether or not the runtime is linked in: without it each call is a
 * no-op (the runtime's entry points are weak references here, as heaptrack's API does).
 *
 *   for (int step = 0; step < steps; ++step) {
 *     train_step(batch);
 *     gmem_step();   // every batch should return to the same live bytes
 *   }
 */
#ifndef GMEMLINT_GMEMRT_H
#define GMEMLINT_GMEMRT_H

#ifdef __cplusplus
extern "C" {
#endif

/* What libgmemrt exports: it is built with hidden visibility, so every entry point a program,
 * the CUDA driver or ctypes reaches is declared with this mark, here or in gmem_forced.h. */
#define GMEMRT_API __attribute__((visibility("default")))

#ifdef GMEMRT_BUILDING
/* the runtime's own definitions, and the same two under the public names for callers without
 * this header (ctypes) */
GMEMRT_API void gmemrt_step(void);
GMEMRT_API int gmemrt_dump(void);
GMEMRT_API void gmem_step(void);
GMEMRT_API int gmem_dump(void);
#else
/* The runtime's entry points (defined by libgmemrt; absent without it). */
GMEMRT_API void gmemrt_step(void) __attribute__((weak));
GMEMRT_API int gmemrt_dump(void) __attribute__((weak));

/* Marks the end of an iteration: the runtime records live bytes per site per step and flags
 * sites whose live bytes keep growing. */
static inline void gmem_step(void) {
  if (gmemrt_step)
    gmemrt_step();
}

/* Writes the telemetry file now (it is also written at exit and on fatal signals). Returns 0 on
 * success, -1 if it could not be written, 1 without the runtime. */
static inline int gmem_dump(void) {
  return gmemrt_dump ? gmemrt_dump() : 1;
}
#endif

#ifdef __cplusplus
}
#endif

#endif
