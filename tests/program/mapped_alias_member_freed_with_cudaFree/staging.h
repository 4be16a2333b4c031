// A mapped staging buffer: pinned host memory and its device address, which
// cudaHostGetDevicePointer gives (staging_open.cu). The release (staging_close.cu) frees both
// addresses: the device one with cudaFree, which does not free pinned memory.
#pragma once
#include <cstddef>

struct Staging {
  float* host;
  float* dev;
  size_t count;
};

void staging_open(Staging* s, size_t count);
void staging_close(Staging* s);
