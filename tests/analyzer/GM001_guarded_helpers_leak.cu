// The same helpers, used so that something does leak.
#include <cuda_runtime.h>
#include <stdlib.h>

template <typename T> void release(T*& ptr) {
  if (ptr) {
    cudaFree(ptr);
    ptr = nullptr;
  }
}

static bool load_table(const char* path, float** out, size_t n) {
  if (!path)
    return false;
  return cudaMalloc((void**)out, n * sizeof(float)) == cudaSuccess;
}

int run(const char* path, size_t n, int verbose) {
  float* d_a = nullptr;
  cudaMalloc(&d_a, n); // expected-warning {{'d_a' (device memory from cudaMalloc) is not freed on every path}}
  if (verbose > 1)
    return 1; // expected-note {{without freeing 'd_a'}}
  release(d_a);

  float* table = NULL;
  if (!load_table(path, &table, n)) // expected-warning {{'table' (device memory from load_table) is not freed on every path}}
    return -1;
  if (verbose)
    return 2; // expected-note {{without freeing 'table'}}
  cudaFree(table);
  return 0;
}
