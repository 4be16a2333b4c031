#include "load_blob.h"
#include "make_blob.h"

int main() {
  char *code;
  make_blob("kernel one", &code); // expected-note {{allocated here with make_blob}}
  return load_blob(code) == 'k' ? 0 : 1; // expected-warning {{'code' (heap array from make_blob) is released with load_blob (which calls free), which frees host heap memory; use delete[]}}
}
