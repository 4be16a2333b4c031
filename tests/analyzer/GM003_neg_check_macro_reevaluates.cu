// expected-no-diagnostics
// A check macro that names its argument twice evaluates cudaFree(p) a second time only when
// the first call failed, and then exits: not a double free.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                   \
  if ((x) != cudaSuccess) {                                        \
    fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(x)); \
    exit(1);                                                       \
  }

void run(size_t n) {
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMemset(d, 0, n));
  CHECK(cudaFree(d));
}
