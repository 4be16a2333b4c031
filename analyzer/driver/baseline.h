/* Baselines: a team adopts gmemlint by recording today's findings and failing only on new ones.
 * Findings match by rule, file and fingerprint (rule, function and the normalised source line,
 * with an occurrence count), so moving unrelated lines does not break the match. */
#ifndef GM_BASELINE_H
#define GM_BASELINE_H

#include "findings/report.h"

#include <stddef.h>

typedef struct gm_baseline gm_baseline;

gm_baseline *gm_baseline_load(const char *path, char *err, size_t errlen);
int gm_baseline_contains(const gm_baseline *b, const gm_finding *f);
void gm_baseline_free(gm_baseline *b);

/* Writes every finding of every report; returns 0 and fills err on failure. */
int gm_baseline_write(const char *path, const gm_finding *const *findings, size_t n, char *err,
                      size_t errlen);

#endif
