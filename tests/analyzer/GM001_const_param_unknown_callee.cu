// A function the program has no body for, given the buffer through a `const T *` parameter,
// reads it: it cannot free or replace it, so the caller still owns it and leaks it.
#include <cuda_runtime.h>

extern void external_read(const float* p, int n);
extern float external_sum(const void* data, size_t bytes);

void leak_after_read() {
  float* d;
  cudaMalloc(&d, 64); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'leak_after_read' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  external_read(d, 16);
  return; // expected-note {{this return leaves without freeing 'd'}}
}

float leak_after_sum(size_t n) {
  void* d;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return 0;
  float s = external_sum(d, n);
  if (s < 0) // expected-note@+1 {{this return leaves without freeing 'd'}}
    return s; // expected-warning@-4 {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'leak_after_sum' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  cudaFree(d);
  return s;
}
