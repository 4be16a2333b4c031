#include "support/source.h"

#include <stdlib.h>

void gm_source_init(gm_source *s, char *text, size_t len) {
  s->text = text;
  s->len = len;
  s->line_starts.len = 0;
  GM_PUSH(s->line_starts, (size_t)0);
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n')
      GM_PUSH(s->line_starts, i + 1);
}

void gm_source_free(gm_source *s) {
  free(s->text);
  GM_VEC_FREE(s->line_starts);
  s->text = NULL;
  s->len = 0;
}

const char *gm_source_line(const gm_source *s, unsigned line, size_t *len) {
  if (!s->text || line == 0 || line > s->line_starts.len)
    return NULL;
  size_t start = s->line_starts.items[line - 1];
  if (start > s->len)
    return NULL;
  size_t end = start;
  while (end < s->len && s->text[end] != '\n')
    end++;
  if (end > start && s->text[end - 1] == '\r')
    end--;
  *len = end - start;
  return s->text + start;
}

unsigned gm_source_line_of(const gm_source *s, size_t offset) {
  size_t lo = 0, hi = s->line_starts.len;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (s->line_starts.items[mid] <= offset)
      lo = mid;
    else
      hi = mid;
  }
  return (unsigned)lo + 1;
}
