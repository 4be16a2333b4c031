#include "blob.h"

int main() {
  char *code;
  size_t size;
  make_blob("kernel one", &code, &size); // expected-warning@blob.h:17 {{heap array from new[] in 'make_blob' is released with free in 'load_blob', which frees host heap memory; use delete[]}} expected-note@blob.h:9 {{allocated here with new[]}} expected-note {{'main' gets the memory here, from make_blob}}
  return load_blob(code) == 'k' ? 0 : 1; // expected-note {{and gives it to load_blob here}}
}
