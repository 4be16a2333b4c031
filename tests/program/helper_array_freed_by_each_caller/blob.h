// A compiled-code blob: make_blob hands out a new[] buffer, and each caller releases it itself.
#pragma once
#include <cstring>

inline void make_blob(const char *text, char **out, size_t *size) {
  size_t n = strlen(text) + 1;
  char *code = new char[n];
  memcpy(code, text, n);
  *out = code;
  *size = n;
}
