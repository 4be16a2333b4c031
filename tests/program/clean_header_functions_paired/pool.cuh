// The clean twin: the header's helper frees its scratch buffer on every path.
#pragma once
#include <cuda_runtime.h>

inline int stage_scratch(size_t n) {
  float *scratch = nullptr;
  if (cudaMalloc(&scratch, n) != cudaSuccess)
    return -1;
  int status = n > (1u << 30) ? -2 : 0;
  cudaFree(scratch);
  return status;
}
