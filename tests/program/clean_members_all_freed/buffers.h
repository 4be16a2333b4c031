// Every member the constructor (buffers_init.cu) allocates, the destructor (buffers_release.cu)
// frees, one of them through a release helper that takes the member's address.
#pragma once
#include <cstddef>

class DoubleBuffer {
public:
  explicit DoubleBuffer(size_t n);
  ~DoubleBuffer();

private:
  float *d_front_;
  float *d_back_;
  unsigned char *h_flags_;
};

void release_device(float **p);
