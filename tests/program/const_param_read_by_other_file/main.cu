#include <cuda_runtime.h>

#include "stats.cuh"

int main() {
  float* weights;
  if (cudaMalloc(&weights, 1 << 20) != cudaSuccess) // expected-warning {{'weights' (device memory from cudaMalloc) is not freed on every path: a return leaves 'main' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return 1;
  checksum(weights, 16);
  return 0; // expected-note {{this return leaves without freeing 'weights'}}
}
