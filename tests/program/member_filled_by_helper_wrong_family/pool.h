// A staging pool whose buffers are filled by allocation helpers in the same file as its init
// (pool_init.cu): a template that pins host memory and a device helper. pool_release.cu frees the
// pinned buffer with free(), which does not release it.
#pragma once
#include <cstddef>

class StagingPool {
public:
  explicit StagingPool(size_t n);
  ~StagingPool();

private:
  float *h_pinned_;
  float *d_mirror_;
};
