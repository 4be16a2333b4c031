// expected-no-diagnostics
#include <cuda_runtime.h>

#include "host_buffer.h"

HostBuffer::HostBuffer(size_t count) : count(count) {
  cudaMallocHost(&data, count * sizeof(float));
}
