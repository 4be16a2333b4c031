// expected-no-diagnostics
// Retry loop: halve the request until cudaMalloc succeeds, then use and free.
#include <cuda_runtime.h>
#include <stdio.h>

size_t largest_block(size_t want) {
  void* d = nullptr;
  size_t bytes = want;
  cudaError_t e;
  do {
    e = cudaMalloc(&d, bytes);
    if (e == cudaSuccess)
      break;
    cudaGetLastError();
    bytes /= 2;
  } while (bytes >= 4096);
  if (e != cudaSuccess)
    return 0;
  cudaMemset(d, 0, bytes);
  cudaFree(d);
  printf("largest block %zu\n", bytes);
  return bytes;
}
