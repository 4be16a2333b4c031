/* NOLINT comments, as clang-tidy users write them. */
#ifndef GM_SUPPRESS_H
#define GM_SUPPRESS_H

#include "findings/report.h"
#include "support/source.h"

/* A file's NOLINT comments, found in one pass over its text and then looked up per finding, so
 * that a file of many findings costs its length plus a binary search for each (not a rescan of
 * every earlier line for each). Built on first use; the source must outlive it. */
typedef struct gm_suppressions gm_suppressions;

gm_suppressions *gm_suppressions_new(const gm_source *src);
void gm_suppressions_free(gm_suppressions *s);

/* Whether a finding of rule `id` on `line` is suppressed by NOLINT on that line, NOLINTNEXTLINE
 * on the line before, or a NOLINTBEGIN/NOLINTEND region around it. `id` is kept for later
 * questions about the same rule: a rule's id, which outlives the table. */
int gm_is_suppressed(gm_suppressions *s, unsigned line, const char *id);

/* Drops from report the findings from `first` on, in file `path` (whose text is src), that a
 * NOLINT comment suppresses; the others keep their order. */
void gm_drop_suppressed(gm_report *report, size_t first, const char *path, const gm_source *src);

#endif
