// expected-no-diagnostics
// After assert(mode == 1) the surviving path knows mode is 1, so the free under the same test
// always runs; the path through __assert_fail ends there.
#include <assert.h>
#include <cuda_runtime.h>

void run_mode(int mode, size_t n) {
  assert(mode == 1);
  float* d_work = nullptr;
  cudaMalloc(&d_work, n * sizeof(float));
  cudaMemset(d_work, 0, n * sizeof(float));
  if (mode == 1)
    cudaFree(d_work);
}

#define checkCuda(call) assert((call) == cudaSuccess)

void with_checks(size_t n) {
  float* d_a = nullptr;
  checkCuda(cudaMalloc(&d_a, n));
  checkCuda(cudaMemset(d_a, 0, n));
  checkCuda(cudaFree(d_a));
}
