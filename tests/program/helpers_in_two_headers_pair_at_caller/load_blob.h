// Releases a blob with free(): right for malloc'd blobs, wrong for make_blob's (make_blob.h).
#pragma once
#include <cstdlib>

inline int load_blob(char *code) {
  int first = code[0];
  free(code);
  return first;
}
