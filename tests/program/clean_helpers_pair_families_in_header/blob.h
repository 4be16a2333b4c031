// A compiled-code blob: make_blob hands out a new[] buffer, load_blob consumes it and releases it
// with delete[], its own family's free.
#pragma once
#include <cstring>

inline void make_blob(const char *text, char **out, size_t *size) {
  size_t n = strlen(text) + 1;
  char *code = new char[n];
  memcpy(code, text, n);
  *out = code;
  *size = n;
}

inline int load_blob(char *code) {
  int first = code[0];
  delete[] code;
  return first;
}
