// expected-no-diagnostics
// The same test picks the allocator and, later, the matching free: a local flag, a parameter's
// member. The library's helpers take the pointer's address (pool_alloc(&a)), which must not make
// the flag's decision forgettable once pool.cu joins the run and its summaries are known.
#include <cuda_runtime.h>

#include "pool.h"

int solve_local(bool use_pool, size_t count) {
  float *a = nullptr;
  if (use_pool)
    pool_alloc(&a, count);
  else
    cudaMalloc(&a, count * sizeof(float));
  fill(a, count);
  if (use_pool)
    pool_free(a);
  else
    cudaFree(a);
  return 0;
}

int solve_member(const SolverOptions *opt) {
  float *a = nullptr;
  if (opt->registered)
    pool_alloc(&a, opt->count);
  else
    cudaMalloc(&a, opt->count * sizeof(float));
  fill(a, opt->count);
  if (opt->registered)
    pool_free(a);
  else
    cudaFree(a);
  return 0;
}
