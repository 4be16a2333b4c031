#include <cstdlib>

#include "blob.h"

static int run_two(const char *text) {
  char *blob;
  size_t size;
  make_blob(text, &blob, &size); // expected-note {{allocated here with make_blob}}
  int first = blob[0];
  free(blob); // expected-warning {{'blob' (heap array from make_blob) is released with free, which frees host heap memory; use delete[]}}
  return first;
}

int main() { return run_two("kernel two") == 'k' ? 0 : 1; }
