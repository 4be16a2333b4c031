// expected-no-diagnostics
#include <cuda_runtime.h>

#include "buffers.h"

DoubleBuffer::DoubleBuffer(size_t n) {
  cudaMalloc(&d_front_, n * sizeof(float));
  cudaMalloc(&d_back_, n * sizeof(float));
  cudaMallocHost(&h_flags_, n);
}

void release_device(float **p) {
  cudaFree(*p);
  *p = nullptr;
}
