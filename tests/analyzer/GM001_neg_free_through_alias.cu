// expected-no-diagnostics
// Freed exactly once, through an alias of the original pointer.
#include <cuda_runtime.h>

struct Slot { void* ptr; };

__global__ void poke(int* p) { *p = 42; }

int run_once() {
  int* d = nullptr;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess)
    return -1;
  poke<<<1, 1>>>(d);
  int h = 0;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  void* victim = d;
  cudaFree(victim);
  return h;
}
