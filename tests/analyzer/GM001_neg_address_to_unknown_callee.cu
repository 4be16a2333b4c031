// expected-no-diagnostics
// The address of the pointer goes to an external function, which may take
// ownership of (or replace) the buffer.
#include <cuda_runtime.h>

void pool_adopt(void** slot, size_t bytes);

int publish(size_t bytes) {
  void* d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess)
    return -1;
  cudaMemset(d, 0, bytes);
  pool_adopt(&d, bytes);
  return 0;
}
