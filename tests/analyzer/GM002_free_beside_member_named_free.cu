// A struct whose function-pointer members are named free and cudaFree, beside real calls of
// libc free and cudaFree on the wrong memory: the real calls are still mismatched frees.
#include <cuda_runtime.h>
#include <stdlib.h>

struct release_ops {
  void (*free)(void* p);
  void (*cudaFree)(void* p);
};

void drop_table(struct release_ops* ops, int n) {
  float* table = new float[n]; // expected-note {{allocated here with new[]}}
  table[0] = 0.0f;
  ops->free(NULL);
  free(table); // expected-warning {{'table' (heap array from new[]) is released with free, which frees host heap memory; use delete[] [GM002 mismatched-free]}}
}

namespace pool {
void free(void* p);
}

void drop_device(struct release_ops ops) {
  float* d = NULL;
  if (cudaMalloc(&d, 64) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return;
  ops.cudaFree(NULL);
  pool::free(NULL);
  ::free(d); // expected-warning {{'d' (device memory from cudaMalloc) is released with free, which frees host heap memory; use cudaFree [GM002 mismatched-free]}}
}
