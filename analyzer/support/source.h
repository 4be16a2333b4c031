/* A source file's text with a line index: for carets, NOLINT comments, fingerprints and --verify.
 */
#ifndef GM_SOURCE_H
#define GM_SOURCE_H

#include "support/util.h"

typedef struct gm_source {
  char *text;
  size_t len;
  GM_VEC(size_t) line_starts;
} gm_source;

void gm_source_init(gm_source *s, char *text, size_t len); /* takes text */
void gm_source_free(gm_source *s);
/* Line (1-based) without its newline; NULL if out of range. */
const char *gm_source_line(const gm_source *s, unsigned line, size_t *len);
unsigned gm_source_line_of(const gm_source *s, size_t offset);

#endif
