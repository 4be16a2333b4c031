// expected-no-diagnostics
// A lazily created, process-lifetime scratch buffer kept in a static local.
#include <cuda_runtime.h>

void* get_scratch(size_t bytes) {
  static void* s_scratch = nullptr;
  static size_t s_bytes = 0;
  if (s_bytes >= bytes)
    return s_scratch;
  void* fresh = nullptr;
  if (cudaMalloc(&fresh, bytes) != cudaSuccess)
    return nullptr;
  if (s_scratch)
    cudaFree(s_scratch);
  s_scratch = fresh;
  s_bytes = bytes;
  return s_scratch;
}
