// expected-no-diagnostics
// Buffer passed to a kernel launch (not an escape) and freed afterwards.
#include <cuda_runtime.h>

__global__ void init_rng_state(unsigned int* state, int n, unsigned int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) state[i] = seed ^ (unsigned int)(i * 2654435761u);
}

unsigned int first_state(int n, unsigned int seed) {
  unsigned int* d_state = nullptr;
  cudaMalloc(&d_state, n * sizeof(unsigned int));
  init_rng_state<<<(n + 127) / 128, 128>>>(d_state, n, seed);
  unsigned int h = 0;
  cudaMemcpy(&h, d_state, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d_state);
  return h;
}
