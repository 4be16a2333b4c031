#include <cuda_runtime.h>

#include "stats.cuh"

// Not main: memory main holds when it returns is GM005's (off by default); a function that returns
// to its caller leaks it for GM001.
int run() {
  float* weights;
  if (cudaMalloc(&weights, 1 << 20) != cudaSuccess) // expected-warning {{'weights' (device memory from cudaMalloc) is not freed on every path: a return leaves 'run' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return 1;
  checksum(weights, 16);
  return 0; // expected-note {{this return leaves without freeing 'weights'}}
}

int main() { return run(); }
