// expected-no-diagnostics
#include <cuda_runtime.h>

#include "registry.cuh"

int main() {
  float *weights;
  if (cudaMalloc(&weights, 1 << 20) != cudaSuccess)
    return 1;
  registry_add(weights);
  registry_release_all();
  return 0;
}
