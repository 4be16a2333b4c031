#include <cstdio>
#include <cuda_runtime.h>

#include "buffers.cuh"

// Not main: memory main holds when it returns is GM005's (off by default); a function that returns
// to its caller leaks it for GM001.
int run() {
  const size_t n = 1 << 20;
  float *weights, *bias, *staging, *scratch;
  cudaMalloc(&weights, n * sizeof(float)); // expected-note {{allocated here with cudaMalloc}}
  release(weights); // expected-note {{first freed here}}
  cudaFree(weights); // expected-warning {{freed twice}}

  cudaMalloc(&bias, n * sizeof(float));
  destroy(&bias);
  cudaFree(bias); // null after destroy(): no double free

  cudaMallocHost(&staging, n * sizeof(float)); // expected-note {{allocated here with cudaMallocHost}}
  release(staging); // expected-warning {{released with release}}

  cudaMalloc(&scratch, n * sizeof(float)); // expected-warning {{'scratch' (device memory from cudaMalloc) is not freed on every path: a return leaves 'run' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  printf("%f\n", checksum(scratch, n));
  return 0; // expected-note {{this return leaves without freeing 'scratch'}}
}

int main() { return run(); }
