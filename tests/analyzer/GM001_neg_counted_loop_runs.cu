// expected-no-diagnostics
// A counted loop with constant bounds runs at least once: the free inside its first pass always
// happens.
#include <cuda_runtime.h>

__global__ void attempt(float* d) { d[threadIdx.x] = 0.0f; }

int run_with_retries(size_t n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  for (int tries = 0; tries < 3; ++tries) {
    attempt<<<1, 32>>>(d);
    cudaFree(d);
    break;
  }
  return 0;
}
