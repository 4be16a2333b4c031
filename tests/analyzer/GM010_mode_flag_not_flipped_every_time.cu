// The positive twin of GM010_neg_mode_flag_two_passes: a mode flag that the loop sets from a
// call, or flips only on some iterations, does not alternate the condition, so the loop may run
// any number of times and allocates on each.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n, bool transposed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = transposed ? 1.0f : 0.0f;
}

bool next_mode(bool current);
bool converged(void);

void mode_from_a_call(int n) {
  bool transposed = false;
  do { // expected-note {{the loop}}
    float *p = nullptr;
    cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n, transposed);
    cudaFree(p);
    transposed = next_mode(transposed);
  } while (transposed);
}

void flipped_when_converged(int n) {
  bool transposed = false;
  do { // expected-note {{the loop}}
    float *p = nullptr;
    cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n, transposed);
    cudaFree(p);
    if (converged())
      transposed = !transposed;
  } while (transposed);
}
