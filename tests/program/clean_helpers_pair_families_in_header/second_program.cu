// expected-no-diagnostics
#include "blob.h"

static int run_two(const char *text) {
  char *code;
  size_t size;
  make_blob(text, &code, &size);
  return load_blob(code);
}

int main() { return run_two("kernel two") == 'k' ? 0 : 1; }
