// A lookup table on the device: its constructor (lut_build.cu) uploads the table, its destructor
// (lut_teardown.cu) destroys the upload stream and frees the table.
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

class DeviceLut {
public:
  DeviceLut(const float *host, size_t n);
  ~DeviceLut();

private:
  cudaStream_t stream_;
  float *d_table_;
};
