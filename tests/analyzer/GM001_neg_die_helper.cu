// expected-no-diagnostics
// A local die() helper always exits, so paths through it do not leak.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char* what, cudaError_t e) {
  fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  exit(EXIT_FAILURE);
}

void run(int n) {
  int* d_a = nullptr;
  int* d_b = nullptr;
  cudaError_t e = cudaMalloc(&d_a, n * sizeof(int));
  if (e != cudaSuccess)
    die("alloc a", e);
  e = cudaMalloc(&d_b, n * sizeof(int));
  if (e != cudaSuccess)
    die("alloc b", e);
  e = cudaMemcpy(d_b, d_a, n * sizeof(int), cudaMemcpyDeviceToDevice);
  if (e != cudaSuccess)
    die("copy", e);
  cudaFree(d_b);
  cudaFree(d_a);
}
