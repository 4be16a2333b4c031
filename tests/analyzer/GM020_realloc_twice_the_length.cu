// The positive twin of GM020_neg_realloc_doubles: realloc to twice the length read so far, which
// grows by what each read returns (a fixed-size record), not twice the capacity: the size grows
// by a constant step, and every iteration copies everything read so far.
#include <stdio.h>
#include <stdlib.h>

size_t read_record(FILE *f, char *dst); // at most 64 bytes

char *read_records(FILE *f, size_t *out) {
  size_t len = 64;
  char *buf = (char *)malloc(2 * len);
  size_t got;
  while ((got = read_record(f, buf + len)) > 0) {
    len += got;
    buf = (char *)realloc(buf, 2 * len); // expected-warning {{this buffer is regrown on every iteration: realloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out}}
  }
  *out = len;
  return buf;
}
