// expected-no-diagnostics
#include <cuda_runtime.h>

#include "steps.cuh"

int main() {
  const size_t n = 1 << 20;
  float *d_weights;
  cudaMalloc(&d_weights, n * sizeof(float));
  for (int step = 0; step < 1000; ++step)
    train_step(d_weights, n);
  cudaFree(d_weights);
  return 0;
}
