// Passing the buffer to a kernel launch does not transfer ownership: the
// buffer still leaks at the end of the function.
#include <cuda_runtime.h>

__global__ void init_rng_state(unsigned int* state, int n, unsigned int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) state[i] = seed ^ (unsigned int)(i * 2654435761u);
}

void seed_generators(int n, unsigned int seed) {
  unsigned int* d_state = nullptr;
  cudaMalloc(&d_state, n * sizeof(unsigned int)); // expected-warning {{'d_state' (device memory from cudaMalloc) is not freed on every path through 'seed_generators'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  init_rng_state<<<(n + 127) / 128, 128>>>(d_state, n, seed);
  cudaDeviceSynchronize();
} // expected-note {{'seed_generators' ends here without freeing 'd_state'}}
