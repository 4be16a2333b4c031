// The frees are crossed: the flag that chose the library's allocator picks cudaFree.
#include <cuda_runtime.h>

#include "pool.h"

int solve_member(const SolverOptions *opt) {
  float *a = nullptr;
  if (opt->registered)
    pool_alloc(&a, opt->count); // expected-note {{allocated here with pool_alloc}}
  else
    cudaMalloc(&a, opt->count * sizeof(float)); // expected-note {{allocated here with cudaMalloc}}
  fill(a, opt->count);
  if (opt->registered)
    cudaFree(a); // expected-warning {{'a' (pinned host memory from pool_alloc) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
  else
    pool_free(a); // expected-warning {{'a' (device memory from cudaMalloc) is released with pool_free (which calls cudaFreeHost), which frees pinned host memory; use cudaFree [GM002 mismatched-free]}}
  return 0;
}
