// A time loop calls step(), which calls a helper only on some GPUs; the
// helper allocates and frees a scratch buffer on every call. The condition on
// the way does not make the allocation setup: on the iterations that take it,
// it churns.
#include <cuda_runtime.h>

static int use_sm5_path;

__global__ void smooth(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.5f * in[i];
}

static void smooth_with_scratch(const float* d_in, int n) {
  float* d_tmp = nullptr;
  cudaMalloc(&d_tmp, n * sizeof(float)); // expected-warning {{cudaMalloc in 'smooth_with_scratch' runs each time 'smooth_with_scratch' is called, and a loop calls 'advance', which reaches 'smooth_with_scratch' (on the iterations where the calls on the way run); on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}}
  smooth<<<(n + 255) / 256, 256>>>(d_in, d_tmp, n);
  cudaFree(d_tmp);
}

static void filter(const float* d_in, int n) {
  if (n > 1024)
    smooth_with_scratch(d_in, n); // expected-note {{'filter' calls 'smooth_with_scratch' here}}
}

static void advance(const float* d_in, int n) {
  if (use_sm5_path)
    filter(d_in, n); // expected-note {{'advance' calls 'filter' here}}
}

int run(const float* d_in, int n, int steps) {
  for (int s = 0; s < steps; ++s)
    advance(d_in, n); // expected-note {{'advance' is called in a loop here}}
  return 0;
}
