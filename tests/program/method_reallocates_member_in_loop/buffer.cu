// expected-no-diagnostics
#include <cuda_runtime.h>

#include "buffer.h"

void Buffer::resize(size_t n) { cudaMalloc(&d_, n * sizeof(float)); }

void Buffer::release() {
  cudaFree(d_);
  d_ = nullptr;
}
