// expected-no-diagnostics
#include <cuda_runtime.h>

#include "staging.h"

void staging_open(Staging* s, size_t count) {
  s->count = count;
  cudaHostAlloc((void**)&s->host, count * sizeof(float), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void**)&s->dev, s->host, 0);
}
