// Managed buffer allocated through CUDA_CHECK; a while loop alternates host
// updates and kernel launches. The finding is on the macro line.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

__global__ void evolve(float* state, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) state[i] = 0.9f * state[i] + 0.1f;
}

int main() {
  const int n = 1 << 16;
  float* state = nullptr;
  CUDA_CHECK(cudaMallocManaged(&state, n * sizeof(float))); // expected-warning {{'state' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  for (int i = 0; i < n; ++i) state[i] = 0.f;
  int step = 0;
  while (step < 100) { // expected-note {{the loop}}
    state[step % n] += 1.f; // expected-note {{and host code touches it here, in the same loop}}
    evolve<<<n / 256, 256>>>(state, n); // expected-note {{a kernel uses it here}}
    CUDA_CHECK(cudaDeviceSynchronize());
    ++step;
  }
  printf("%f\n", state[0]);
  CUDA_CHECK(cudaFree(state));
  return 0;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
