// expected-no-diagnostics
// A while (true) whose body always breaks at its end: the allocation runs
// once. (A structured way of writing a block with early exits.)
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void init(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = -1;
}

int prepare(int n, int** out) {
  int rc = -1;
  while (true) {
    int* d = nullptr;
    if (n <= 0)
      break;
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
      break;
    init<<<(n + 255) / 256, 256>>>(d, n);
    *out = d;
    rc = 0;
    break;
  }
  return rc;
}
