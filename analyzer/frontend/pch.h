/* Shared precompiled preambles. In CUDA mode clang force-includes its CUDA runtime wrapper
 * (cuda_runtime.h and the rest), which is most of the parse time of a small .cu file: the *base*
 * preamble holds it and nvcc_compat.h, once per distinct set of flags. A *chained* preamble adds
 * some of a file's leading system includes (include_run.h) on top of a shorter one (the base, or
 * a preamble of fewer of the same includes), for the files whose runs hold them (the driver
 * decides in which order: driver/preambles.h): such a file is parsed with that preamble and those
 * directives blanked, so it reads the headers it includes and no other. A chained preamble is
 * refused (and its files use the one below) when building it gives an error, when one of its
 * headers is not a system header, or when one names __BASE_FILE__, __DATE__ or __TIME__ (which
 * would expand otherwise in the preamble).
 * Entries are registered first and built when the driver says, so that workers build different
 * preambles at once. Thread-safe; the files go at gm_pch_cleanup(), except those of the
 * preamble store (pch_store.h, when on): a preamble is taken from it when a valid entry is
 * there, and one built on a stored preamble (or on none) is kept there for later runs. */
#ifndef GM_PCH_H
#define GM_PCH_H

#include "frontend/nvcc_compat.h" /* the header every CUDA parse, and so every PCH, includes */
#include "support/util.h"

#include <clang-c/Index.h>

typedef struct gm_preamble gm_preamble;

enum gm_pch_state { GM_PCH_UNBUILT, GM_PCH_BUILDING, GM_PCH_READY, GM_PCH_FAILED };

/* The preamble of these parser flags holding the CUDA wrapper, nvcc_compat.h and headers[0..n)
 * (none: the base), registered on first use (unbuilt); `below` is the preamble it is built on
 * (NULL for the base; for a chained one, a preamble of the same flags whose headers begin its
 * own), used when the entry is new. */
gm_preamble *gm_pch_get(const char *const *args, int nargs, char *const *headers, size_t n,
                        gm_preamble *below);
gm_preamble *gm_pch_below(const gm_preamble *p);
size_t gm_pch_headers(const gm_preamble *p);
/* Its headers, in the order it holds them (gm_pch_headers of them). */
char *const *gm_pch_header_names(const gm_preamble *p);
enum gm_pch_state gm_pch_state_of(const gm_preamble *p);
/* Claims an unbuilt preamble whose own base is ready: returns 1 and marks it building. One whose
 * base failed fails too (returns 0). */
int gm_pch_claim(gm_preamble *p);
/* Builds a claimed preamble; it is then ready or failed. */
void gm_pch_build(CXIndex index, gm_preamble *p);
/* A ready preamble's file, and every file it read (a parse that uses it does not list them
 * among its own inclusions); valid until gm_pch_cleanup(). */
const char *gm_pch_path(const gm_preamble *p);
const gm_str_vec *gm_pch_includes(const gm_preamble *p);
/* A ready preamble that a parse could not use (clang rejected it: a stored one moved, or damaged
 * where the store's checks do not look): failed from now on, so that later parses take the one
 * below it, and dropped from the store. */
void gm_pch_discard(gm_preamble *p);
void gm_pch_cleanup(void);

#endif
