#include "load_blob.h"
#include "make_blob.h"

static int run_two(const char *text) {
  char *blob;
  make_blob(text, &blob); // expected-note {{allocated here with make_blob}}
  return load_blob(blob); // expected-warning {{'blob' (heap array from make_blob) is released with load_blob (which calls free), which frees host heap memory; use delete[]}}
}

int main() { return run_two("kernel two") == 'k' ? 0 : 1; }
