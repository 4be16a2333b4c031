// glibc's C++ assert(x) is `x ? void(0) : __assert_fail(...)`: only the failing arm ends its
// path, so the function is still checked after each assert, and its leak is found.
#include <assert.h>
#include <cuda_runtime.h>

int scale_rows(const float* host, int rows, int cols) {
  assert(rows > 0 && cols > 0);
  float* d_rows = nullptr;
  cudaMalloc(&d_rows, (size_t)rows * cols * sizeof(float)); // expected-warning {{'d_rows' (device memory from cudaMalloc) is not freed on every path}}
  assert(d_rows != nullptr);
  cudaMemcpy(d_rows, host, (size_t)rows * cols * sizeof(float), cudaMemcpyHostToDevice);
  if (cols > 4096)
    return -1; // expected-note {{this return leaves without freeing 'd_rows'}}
  cudaFree(d_rows);
  return 0;
}

// A ?: inside an expression whose one arm never returns: the other arm carries the path on.
#include <stdio.h>
#include <stdlib.h>

int checked_size(long n) {
  size_t bytes = n > 0 ? (size_t)n : (fprintf(stderr, "bad size\n"), exit(1), (size_t)0);
  float* d_tmp = nullptr;
  cudaMalloc(&d_tmp, bytes); // expected-warning {{'d_tmp' (device memory from cudaMalloc) is not freed on every path}}
  return 0; // expected-note {{this return leaves without freeing 'd_tmp'}}
}
