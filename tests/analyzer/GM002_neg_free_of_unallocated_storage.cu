// Arrays, variables and string literals that are never what a free releases: a pointer that
// starts at a local buffer and is freed only when an allocation replaced it (tested by
// comparing it with the buffer, or through a flag), an array of pointers whose elements are
// freed, a parameter declared as an array (a pointer), and cudaFree(0), the usual way to create
// the context.
// expected-no-diagnostics
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

size_t format(const char* text, size_t n) {
  char local[64];
  char* out = local;
  if (n >= sizeof local)
    out = (char*)malloc(n + 1);
  memcpy(out, text, n);
  out[n] = 0;
  size_t len = strlen(out);
  if (out != local)
    free(out);
  return len;
}

size_t format_flagged(const char* text, size_t n) {
  char local[64];
  char* out = local;
  int on_heap = 0;
  if (n >= sizeof local) {
    out = (char*)malloc(n + 1);
    on_heap = 1;
  }
  memcpy(out, text, n);
  out[n] = 0;
  size_t len = strlen(out);
  if (on_heap)
    free(out);
  return len;
}

void per_device_buffers(int ndev, size_t bytes) {
  float* d_bufs[8];
  for (int i = 0; i < ndev && i < 8; ++i)
    cudaMalloc(&d_bufs[i], bytes);
  for (int i = 0; i < ndev && i < 8; ++i)
    cudaFree(d_bufs[i]);
}

void release_param(float table[]) {
  cudaFree(table);
}

void reuse(size_t bytes) {
  float scratch[4];
  float* p = scratch;
  p[0] = 0.f;
  cudaFree(0);
  if (cudaMalloc(&p, bytes) != cudaSuccess)
    return;
  cudaFree(p);
}
