// A host-to-device stager: stager_init.cu pins its host buffer and allocates its device buffer
// on every run; stager_release.cu frees the pinned buffer on both branches of its overlap flag
// (synchronising the stream first when copies overlap).
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

struct Stager {
  bool overlap;
  cudaStream_t stream;
  float *h_pinned;
  float *d_buf;
};

void stager_init(Stager *s, bool overlap, size_t n);
void stager_release(Stager *s);
