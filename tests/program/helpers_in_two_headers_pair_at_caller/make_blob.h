// make_blob hands out a new[] buffer; load_blob (load_blob.h, another header) frees with free().
// Neither header alone holds the wrong pairing: each caller that joins them is reported.
#pragma once
#include <cstring>

inline void make_blob(const char *text, char **out) {
  size_t n = strlen(text) + 1;
  char *code = new char[n];
  memcpy(code, text, n);
  *out = code;
}
