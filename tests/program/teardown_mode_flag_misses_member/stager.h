// A host-to-device stager: stager_init.cu pins its host buffer and allocates its device buffer
// on every run; stager_release.cu frees the pinned buffer only when the stager was asked to
// overlap copies, a mode flag that has nothing to do with how the buffer was allocated.
#pragma once
#include <cstddef>

struct Stager {
  bool overlap;
  float *h_pinned;
  float *d_buf;
};

void stager_init(Stager *s, bool overlap, size_t n);
void stager_release(Stager *s);
