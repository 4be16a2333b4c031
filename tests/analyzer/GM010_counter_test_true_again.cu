// Tests for one value of a counter that is true again and again: a nesting depth stepped up and
// back down on every call (`depth == 0` on each outermost call), and the first batch of an
// inner loop, which comes round once per epoch: the allocation runs once per iteration of the
// outer loop, not once per run.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

static int depth = 0;
static float *d_work;

void enter(int n) {
  if (depth == 0)
    cudaMalloc(&d_work, n * sizeof(float)); // expected-warning {{cudaMalloc in 'enter' runs on every iteration of a loop that calls 'enter'; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}}
  depth++;
  fill<<<(n + 255) / 256, 256>>>(d_work, n);
  depth--;
  if (depth == 0)
    cudaFree(d_work);
}

void steps(int n, int rounds) {
  for (int r = 0; r < rounds; ++r)
    enter(n); // expected-note {{'enter' is called in a loop here}}
}

void epochs(int n, int nepochs, int nbatches) {
  for (int e = 0; e < nepochs; ++e) { // expected-note {{the loop}}
    float *tmp = nullptr;
    for (int b = 0; b < nbatches; ++b) {
      if (b == 0)
        cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
      fill<<<(n + 255) / 256, 256>>>(tmp, n);
    }
    cudaFree(tmp);
  }
}
