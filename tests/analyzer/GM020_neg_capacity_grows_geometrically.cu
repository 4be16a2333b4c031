// expected-no-diagnostics
// Capacity guards whose branch grows the capacity geometrically, in the forms vectors use: twice
// the request, half as much again, the larger of twice the capacity and the request, and twice
// the request in bytes against a request in bytes. The array is regrown a logarithm of the
// final size times, and the copying stays linear.
#include <algorithm>
#include <stdlib.h>
#include <string.h>

int *twice_the_request(const int *src, size_t len, int rounds) {
  int *h = nullptr;
  size_t n = 0, cap = 0;
  for (int r = 0; r < rounds; ++r) {
    if (cap < n + len) {
      cap = 2 * (n + len);
      h = (int *)realloc(h, cap * sizeof(int));
    }
    memcpy(h + n, src, len * sizeof(int));
    n += len;
  }
  return h;
}

int *half_again(const int *src, size_t len, int rounds) {
  int *h = nullptr;
  size_t n = 0, cap = 0;
  for (int r = 0; r < rounds; ++r) {
    size_t need = n + len;
    if (need > cap) {
      cap = need + need / 2;
      h = (int *)realloc(h, cap * sizeof(int));
    }
    memcpy(h + n, src, len * sizeof(int));
    n = need;
  }
  return h;
}

int *max_of_double(const int *src, size_t len, int rounds) {
  int *h = nullptr;
  size_t n = 0, cap = 0;
  for (int r = 0; r < rounds; ++r) {
    if (n + len > cap) {
      cap = std::max(2 * cap, n + len);
      h = (int *)realloc(h, cap * sizeof(int));
    }
    memcpy(h + n, src, len * sizeof(int));
    n += len;
  }
  return h;
}

float *bytes(const float *src, size_t len, int rounds) {
  float *h = nullptr;
  size_t n = 0, cap_bytes = 0;
  for (int r = 0; r < rounds; ++r) {
    if (cap_bytes < (n + len) * sizeof(float)) {
      cap_bytes = 2 * (n + len) * sizeof(float);
      h = (float *)realloc(h, cap_bytes);
    }
    memcpy(h + n, src, len * sizeof(float));
    n += len;
  }
  return h;
}
