// expected-no-diagnostics
#include <cuda_runtime.h>

#include "buffer.h"

void Buffer::resize(size_t n) {
  if (cap_ < n) {
    cudaFree(d_);
    cudaMalloc(&d_, n * sizeof(float));
    cap_ = n;
  }
}

void Buffer::release() {
  cudaFree(d_);
  d_ = nullptr;
}
