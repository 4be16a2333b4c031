// A helper (pool.cu) that hands a new buffer to its caller through an out-parameter and also
// records it in a pool reached from another parameter; the pool frees everything it recorded.
// The caller (main.cu) gets a view of the buffer, not its ownership.
#pragma once
#include <cstddef>

struct BufferPool {
  float *buffers[64];
  int count;
};

void pool_buffer(float **out, BufferPool *pool, size_t n);
void pool_release_all(BufferPool *pool);
