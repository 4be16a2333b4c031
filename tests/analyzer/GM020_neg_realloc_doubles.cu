// expected-no-diagnostics
// A reader that doubles its buffer each time a read fills it: realloc to twice the capacity,
// the capacity doubled with it. The sizes grow geometrically, so the copying adds up to about
// the final size, not its square.
#include <stdio.h>
#include <stdlib.h>

char *read_all(FILE *f, size_t *out) {
  size_t cap = 4096, len = 0;
  char *buf = (char *)malloc(cap);
  size_t got;
  while ((got = fread(buf + len, 1, cap - len, f)) == cap - len) {
    len += got;
    buf = (char *)realloc(buf, 2 * cap);
    cap *= 2;
  }
  *out = len + got;
  return buf;
}
