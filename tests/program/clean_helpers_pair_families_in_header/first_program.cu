// expected-no-diagnostics
#include "blob.h"

int main() {
  char *code;
  size_t size;
  make_blob("kernel one", &code, &size);
  return load_blob(code) == 'k' ? 0 : 1;
}
