// expected-no-diagnostics
#include "lut.h"

DeviceLut::DeviceLut(const float *host, size_t n) {
  cudaStreamCreate(&stream_);
  cudaMalloc(&d_table_, n * sizeof(float));
  cudaMemcpyAsync(d_table_, host, n * sizeof(float), cudaMemcpyHostToDevice, stream_);
}
