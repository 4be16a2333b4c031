// Allocates through the runtime API: gmemcc's forced header routes these calls to libgmemrt.
#include <cuda_runtime.h>

#include "buffers.h"

float *make_buffer(size_t n) {
  float *p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    return nullptr;
  return p;
}

void drop_buffer(float *p) { cudaFree(p); }
