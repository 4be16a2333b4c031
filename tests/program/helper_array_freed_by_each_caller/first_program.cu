// Each caller frees make_blob's new[] memory with free(): its own wrong free, reported in its
// own file.
#include <cstdlib>

#include "blob.h"

int main() {
  char *code;
  size_t size;
  make_blob("kernel one", &code, &size); // expected-note {{allocated here with make_blob}}
  int first = code[0];
  free(code); // expected-warning {{'code' (heap array from make_blob) is released with free, which frees host heap memory; use delete[]}}
  return first == 'k' ? 0 : 1;
}
