// A project header whose inline helper leaks its scratch buffer on the early return. Two files
// include it: it is analysed in each and reported once, in the first, with the includer named.
#pragma once
#include <cuda_runtime.h>

inline int stage_scratch(size_t n) {
  float *scratch = nullptr;
  if (cudaMalloc(&scratch, n) != cudaSuccess)
    return -1;
  if (n > (1u << 30))
    return -2;
  cudaFree(scratch);
  return 0;
}
