#include "lut.h"

DeviceLut::DeviceLut(const float *host, size_t n) {
  cudaStreamCreate(&stream_);
  cudaMalloc(&d_table_, n * sizeof(float)); // expected-warning {{'DeviceLut::d_table_' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'DeviceLut' has a destructor, '~DeviceLut', that does not; free it there with cudaFree [GM001 unpaired-allocation]}} expected-note@lut_teardown.cu:4 {{'~DeviceLut' is defined here}}
  cudaMemcpyAsync(d_table_, host, n * sizeof(float), cudaMemcpyHostToDevice, stream_);
}
