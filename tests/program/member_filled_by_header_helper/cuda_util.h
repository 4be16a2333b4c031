// Allocation helpers defined in a header every file includes: a template that allocates device
// memory for `n` elements through the caller's pointer, and one that releases it and clears the
// pointer.
#pragma once
#include <cstddef>
#include <cuda_runtime.h>

template <typename T> inline void device_array(T **p, size_t n) {
  cudaMalloc((void **)p, n * sizeof(T));
}

template <typename T> inline void device_release(T **p) {
  cudaFree(*p);
  *p = nullptr;
}
