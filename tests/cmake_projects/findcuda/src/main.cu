#include <cuda_runtime.h>

#include "scale.h"

int host_count();

int stage(int n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n * SCALE * GRID_FLAG) != cudaSuccess)
    return -1;
  if (n > host_count())
    return -2; // BUG: d leaks
  cudaFree(d);
  return 0;
}

int main() { return stage(16); }
