// expected-no-diagnostics
// The same wrong free as first_program.cu's, inside blob.h: reported once, with that file's
// findings, though this file names the header another way (as programs in sibling folders name
// a common one).
#include "../helpers_pair_families_in_header/blob.h"

static int run_two(const char *text) {
  char *code;
  size_t size;
  make_blob(text, &code, &size);
  return load_blob(code);
}

int main() { return run_two("kernel two") == 'k' ? 0 : 1; }
