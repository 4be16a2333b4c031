// A host staging buffer: pinned in its constructor (host_buffer_alloc.cu), released with free()
// in its destructor (host_buffer_free.cu).
#pragma once
#include <cstddef>

struct HostBuffer {
  explicit HostBuffer(size_t count);
  ~HostBuffer();
  float *data;
  size_t count;
};
