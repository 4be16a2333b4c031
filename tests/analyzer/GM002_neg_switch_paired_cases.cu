// expected-no-diagnostics
// Two switches on the same kind: the first allocates per case, the second frees per case. They
// pair case by case, so no free meets another case's memory and nothing is freed twice.
#include <cuda_runtime.h>
#include <stdlib.h>

enum buffer_kind { KIND_DEVICE, KIND_PINNED, KIND_MANAGED, KIND_HOST };

void exercise(enum buffer_kind kind, size_t bytes) {
  void* buf = NULL;
  switch (kind) {
  case KIND_DEVICE:
    cudaMalloc(&buf, bytes);
    break;
  case KIND_PINNED:
    cudaMallocHost(&buf, bytes);
    break;
  case KIND_MANAGED:
    cudaMallocManaged(&buf, bytes);
    break;
  default:
    buf = malloc(bytes);
    break;
  }
  cudaMemset(buf, 0, bytes);
  switch (kind) {
  case KIND_DEVICE:
  case KIND_MANAGED:
    cudaFree(buf);
    break;
  case KIND_PINNED:
    cudaFreeHost(buf);
    break;
  default:
    free(buf);
    break;
  }
}
