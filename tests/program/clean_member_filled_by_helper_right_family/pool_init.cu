// expected-no-diagnostics
#include <cuda_runtime.h>

#include "pool.h"

template <typename T> static void host_pinned(T **p, size_t n) {
  cudaMallocHost((void **)p, n * sizeof(T));
}

static void dev_alloc(void **p, size_t bytes) { cudaMalloc(p, bytes); }

StagingPool::StagingPool(size_t n) {
  host_pinned(&h_pinned_, n);
  dev_alloc((void **)&this->d_mirror_, n * sizeof(float));
}
