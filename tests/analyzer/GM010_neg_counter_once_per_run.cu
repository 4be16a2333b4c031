// expected-no-diagnostics
// Tests for one value of counters that pass it once in the whole run: the first batch of the
// first epoch (both counters tested), a countdown that only decreases, and a step counter kept
// in a static that only increases.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void epochs(int n, int nepochs, int nbatches) {
  float *tmp = nullptr;
  for (int e = 0; e < nepochs; ++e) {
    for (int b = 0; b < nbatches; ++b) {
      if (e == 0 && b == 0)
        cudaMalloc(&tmp, n * sizeof(float));
      fill<<<(n + 255) / 256, 256>>>(tmp, n);
    }
  }
  cudaFree(tmp);
}

void countdown(int n) {
  float *tmp = nullptr;
  int left = 1000;
  while (left > 0) {
    if (left == 1000)
      cudaMalloc(&tmp, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    left--;
  }
  cudaFree(tmp);
}

static int step_no = 0;
static float *d_state;

void step(int n) {
  if (step_no == 0)
    cudaMalloc(&d_state, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d_state, n);
  ++step_no;
}

void run(int n, int steps) {
  for (int s = 0; s < steps; ++s)
    step(n);
}
// expected-rules-unchecked GM001: the flow engine does not carry the countdown's value round the while loop and takes the allocation for one made again on a later iteration, a false positive of GM001's
