/* NOLINT comments, as clang-tidy users write them. */
#ifndef GM_SUPPRESS_H
#define GM_SUPPRESS_H

#include "support/source.h"

/* Whether a finding of rule `id` on `line` is suppressed by NOLINT on that line, NOLINTNEXTLINE
 * on the line before, or a NOLINTBEGIN/NOLINTEND region around it. */
int gm_is_suppressed(const gm_source *src, unsigned line, const char *id);

#endif
