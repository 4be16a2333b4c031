// A device buffer whose resize (buffer.cu) allocates into its member without freeing what it
// held; main.cu resizes one buffer on every step of a loop, so each step loses the last block.
#pragma once
#include <cstddef>

class Buffer {
public:
  void resize(size_t n);
  void release();
  float *d_ = nullptr;
};
