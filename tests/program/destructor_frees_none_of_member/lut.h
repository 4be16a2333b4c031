// A lookup table on the device: its constructor (lut_build.cu) uploads the table, its destructor
// (lut_teardown.cu) destroys the upload stream and forgets the table itself. No member of the
// class is freed anywhere, but the class has a teardown that should free it.
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
