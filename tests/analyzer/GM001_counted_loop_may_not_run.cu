// The same loop with a bound known only at run time may run no times at all.
#include <cuda_runtime.h>

__global__ void attempt(float* d) { d[threadIdx.x] = 0.0f; }

int run_with_retries(size_t n, int max_tries) {
  float* d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path}}
    return -1;
  for (int tries = 0; tries < max_tries; ++tries) {
    attempt<<<1, 32>>>(d);
    cudaFree(d);
    break;
  }
  return 0; // expected-note {{without freeing 'd'}}
}
