// The clean twin of method_reallocates_member_in_loop: resize (buffer.cu) frees the block the
// member holds before it allocates a larger one, so the loop in main.cu loses nothing.
#pragma once
#include <cstddef>

class Buffer {
public:
  void resize(size_t n);
  void release();
  float *d_ = nullptr;
  size_t cap_ = 0;
};
