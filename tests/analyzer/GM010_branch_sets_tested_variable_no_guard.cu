// Branches that assign a variable their condition reads, yet guard nothing: a status test whose
// branch stores the allocation's status (true again after every success), and an exact-fit
// capacity raised to a request that grows on every iteration (a running total), so the test
// holds each time. Both allocate on every iteration.
#include <cuda_runtime.h>

__global__ void fill(float *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void while_no_error(size_t n, int steps) {
  cudaError_t err = cudaSuccess;
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    float *p = nullptr;
    if (err == cudaSuccess) {
      err = cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
      fill<<<(unsigned)((n + 255) / 256), 256>>>(p, n);
      cudaFree(p);
    }
  }
}

void exact_fit_to_a_total(const float *const *chunks, const size_t *len, int nchunks) {
  float *d = nullptr;
  size_t total = 0, cap = 0;
  for (int c = 0; c < nchunks; ++c) { // expected-note {{the loop}}
    size_t need = total + len[c];
    if (cap < need) {
      cudaFree(d);
      cap = need;
      cudaMalloc(&d, cap * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop and its size varies, which also fragments device memory; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate the largest size once before the loop, or use cudaMallocAsync from a stream-ordered memory pool}}
    }
    cudaMemcpy(d + total, chunks[c], len[c] * sizeof(float), cudaMemcpyHostToDevice);
    total = need;
  }
  fill<<<(unsigned)((total + 255) / 256), 256>>>(d, total);
  cudaFree(d);
}
