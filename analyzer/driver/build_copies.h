/* Headers a build copies into its build tree (CMake's configure_file or file(COPY), a Makefile's
 * install step into build/include): a finding in such a copy is reported at its source, the
 * file in the source tree with the same name and the same bytes, which is the one to edit. */
#ifndef GM_BUILD_COPIES_H
#define GM_BUILD_COPIES_H

#include "driver/compdb.h"
#include "findings/report.h"

typedef struct gm_build_copies gm_build_copies;

/* For a run with a compile database: its build directory, and the source tree the database's
 * files outside it share (indexed on first use). NULL when there is no database. */
gm_build_copies *gm_build_copies_new(gm_compdb *db);
void gm_build_copies_free(gm_build_copies *c);

/* Moves the locations of findings[first..] (and their notes) that lie in a copy inside the build
 * directory to the copy's source. Thread-safe. */
void gm_build_copies_apply(gm_build_copies *c, gm_report *rep, size_t first);

#endif
