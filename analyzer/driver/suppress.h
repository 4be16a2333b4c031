/* NOLINT comments, as clang-tidy users write them. */
#ifndef GM_SUPPRESS_H
#define GM_SUPPRESS_H

#include "findings/report.h"
#include "support/source.h"

/* Drops from report the findings from `first` on, in file `path` (whose text is src), that a
 * NOLINT comment suppresses: NOLINT on the finding's line, NOLINTNEXTLINE on the line before, or a
 * NOLINTBEGIN/NOLINTEND region around it. The others keep their order. The file's NOLINT lines
 * are found in one pass and each finding is a binary search among them, so a file of many
 * findings costs its length, not its length for each finding. */
void gm_drop_suppressed(gm_report *report, size_t first, const char *path, const gm_source *src);

#endif
