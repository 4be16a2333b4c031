#include "driver/suppress.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Whether the check list that follows a NOLINT marker covers rule id. No list, or `*`, covers
 * every rule; a list that names no gm rule (e.g. NOLINT(bugprone-*)) covers none of ours. */
static int list_covers(const char *after, const char *end, const char *id) {
  if (after >= end || *after != '(')
    return 1;
  const char *close = memchr(after, ')', (size_t)(end - after));
  if (!close)
    return 0;
  const char *p = after + 1;
  while (p < close) {
    while (p < close && (isspace((unsigned char)*p) || *p == ','))
      p++;
    const char *q = p;
    while (q < close && *q != ',')
      q++;
    const char *e = q;
    while (e > p && isspace((unsigned char)e[-1]))
      e--;
    size_t n = (size_t)(e - p);
    if ((n == 1 && *p == '*') || (n == strlen(id) && strncasecmp(p, id, n) == 0) ||
        (n == 2 && strncasecmp(p, "gm", 2) == 0) || (n == 3 && strncasecmp(p, "GM*", 3) == 0))
      return 1;
    p = q;
  }
  return 0;
}

/* Finds `marker` inside a comment on the line and checks its list. `marker` must not be directly
 * followed by a letter (so NOLINT does not match NOLINTNEXTLINE). */
static int line_has(const char *line, size_t len, const char *marker, const char *id) {
  const char *end = line + len;
  const char *comment = NULL;
  for (const char *p = line; p + 1 < end; p++)
    if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
      comment = p;
      break;
    }
  if (!comment)
    return 0;
  size_t mlen = strlen(marker);
  for (const char *p = comment; p + mlen <= end; p++) {
    if (strncmp(p, marker, mlen) != 0)
      continue;
    const char *after = p + mlen;
    if (after < end && isalpha((unsigned char)*after))
      continue;
    if (list_covers(after, end, id))
      return 1;
  }
  return 0;
}

int gm_is_suppressed(const gm_source *src, unsigned line, const char *id) {
  size_t len;
  const char *text = gm_source_line(src, line, &len);
  if (text && line_has(text, len, "NOLINT", id))
    return 1;
  if (line > 1 && (text = gm_source_line(src, line - 1, &len)) &&
      line_has(text, len, "NOLINTNEXTLINE", id))
    return 1;
  /* NOLINTBEGIN ... NOLINTEND regions */
  int open = 0;
  for (unsigned l = 1; l < line; l++) {
    text = gm_source_line(src, l, &len);
    if (!text || !memchr(text, 'N', len))
      continue;
    if (line_has(text, len, "NOLINTBEGIN", id))
      open++;
    if (line_has(text, len, "NOLINTEND", id) && open > 0)
      open--;
  }
  return open > 0;
}
