// expected-no-diagnostics
#include <cuda_runtime.h>

#include "buffers.h"

DoubleBuffer::~DoubleBuffer() {
  cudaFree(d_front_);
  release_device(&d_back_);
  cudaFreeHost(h_flags_);
}

int main() {
  DoubleBuffer b(4096);
  return 0;
}
