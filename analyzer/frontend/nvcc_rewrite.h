/* What nvcc's front end accepts and clang's parser rejects, rewritten in a copy of the text so
 * that clang parses it as nvcc does. Every rewrite keeps the text's length and its newlines, so
 * that each line, and each offset outside the rewritten span, stays where it was: locations,
 * carets, NOLINT comments and fix-its still point into the file as written.
 *
 * - spaced chevrons: `k << < grid, block >> >(args)` (and `< <<`, `< < <`, `> >>`, `> > >`)
 *   become `k<<<   grid, block>>>  (args)`;
 * - a braced initialiser as a launch's grid or block: `k<<<grid, {x, y, 1}>>>` becomes
 *   `k<<<grid,$(x, y, 1)>>>`, the nearest blank of code on the line within the launch
 *   configuration making room for `$`, a macro in GM_NVCC_REWRITE_PATH that makes a dim3 by
 *   parentheses (list-initialisation would reject `int` values as narrowing, which nvcc
 *   accepts); without such a blank, clang's error stays. A braced grid and block together need
 *   no blank: `k<<<{a,b},{c,d}>>>` becomes `k<<<$(a,b)(c,d)>>>`, the expansion of `$` ending in a
 *   macro that takes `(c,d)` as its arguments and makes the block;
 * - host-side declarations of the built-in variables (`extern const uint3 threadIdx;`), which
 *   clang declares with types of its own: blanked.
 *
 * The front end applies these only to a file clang reported errors in, and keeps the result only
 * when the file then parses with fewer (frontend.c). */
#ifndef GM_NVCC_REWRITE_H
#define GM_NVCC_REWRITE_H

#include <stddef.h>

enum {
  GM_REWRITE_CHEVRONS = 1,      /* spaced launch chevrons */
  GM_REWRITE_BRACED_LAUNCH = 2, /* a braced grid or block */
  GM_REWRITE_BUILTIN_DECL = 4,  /* a host declaration of threadIdx, blockDim, ... */
};

/* Rewrites text[0..len) in place; returns the GM_REWRITE_* bits of what it changed (0: nothing). */
unsigned gm_nvcc_rewrite(char *text, size_t len);

/* The virtual header a parse of rewritten text force-includes (the `$` typedef), and its text. */
#define GM_NVCC_REWRITE_PATH "/__gmemlint__/nvcc_rewrite.h"
extern const char gm_nvcc_rewrite_text[];

/* GNU's `typeof` (nvcc's front end takes it under any -std), for a second parse whose first
 * reported it: a macro of clang's `__typeof__`, not -fgnu-keywords, which a shared preamble
 * built without it would refuse. */
#define GM_NVCC_GNU_KEYWORDS_PATH "/__gmemlint__/nvcc_gnu_keywords.h"
extern const char gm_nvcc_gnu_keywords_text[];

#endif
