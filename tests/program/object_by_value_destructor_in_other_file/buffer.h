// A device buffer whose constructor and destructor live in buffer.cu; the class has no copy
// constructor of its own, so a copy holds the same pointer. main.cu passes one by value.
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n);
  ~DeviceBuffer();
  float *data() const { return data_; }

private:
  float *data_;
  size_t n_;
};

double checksum(DeviceBuffer buf);
double peek(const DeviceBuffer &buf);
