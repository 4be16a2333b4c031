// The same macro around two frees of one pointer: the second runs after the first succeeded.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                   \
  if ((x) != cudaSuccess) {                                        \
    fprintf(stderr, "%s failed: %s\n", #x, cudaGetErrorString(x)); \
    exit(1);                                                       \
  }

void run(size_t n) {
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n)); // expected-note {{allocated here with cudaMalloc}}
  CHECK(cudaFree(d)); // expected-note {{first freed here}}
  CHECK(cudaFree(d)); // expected-warning {{freed twice}}
}
