// The positive twin of GM010_neg_first_count_only: the same test of one value
// of a call counter, but the counter is reset every few calls, so the
// allocation happens again and again while the search loop runs.
#include <cuda_runtime.h>

static int calls = 0;
static float* d_work;

__global__ void gain(float* work, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) work[i] = 0.f;
}

float pgain(int n) {
  if (calls == 0)
    cudaMalloc(&d_work, n * sizeof(float)); // expected-warning {{cudaMalloc in 'pgain' runs on every iteration of a loop that calls 'pgain'; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}}
  gain<<<(n + 255) / 256, 256>>>(d_work, n);
  calls++;
  if (calls == 8) {
    cudaFree(d_work);
    calls = 0;
  }
  return 0.f;
}

void search(int n, int rounds) {
  for (int r = 0; r < rounds; ++r)
    pgain(n); // expected-note {{'pgain' is called in a loop here}}
}
