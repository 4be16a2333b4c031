/* Private to the telemetry reader (telemetry_schema.c, telemetry_merge.c, telemetry_sites.c,
 * human_units.c): what those files share and telemetry.h does not offer. */
#ifndef GM_TELEMETRY_PRIVATE_H
#define GM_TELEMETRY_PRIVATE_H

#include "runtime_view/telemetry.h"

#include <jansson.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Merges one telemetry file, already checked against the schema (telemetry_schema.c), into t:
 * its run, its sites (merged with those of the same file, line and API), its out-of-memory
 * events and pools. path and real (its realpath, or NULL) name the file. */
void gm_telemetry_merge_checked(gm_telemetry *t, const json_t *root, const char *path,
                                const char *real);

/* One line's sites in the by-line index: the first and the last (positions + 1; first 0: an
 * empty bucket), chained through gm_tsite.next_on_line in the order of t->sites. */
struct gm_line_sites {
  unsigned line;
  size_t first, last;
};

/* The bucket of line in t->by_line (the empty one where it would go when absent). */
struct gm_line_sites *gm_line_bucket(const gm_telemetry *t, unsigned line);

#endif
