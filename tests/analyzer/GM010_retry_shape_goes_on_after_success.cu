// Loops shaped like retry loops, the allocation's status tested by the condition or right after
// the call, where the test goes the other way: the loop goes round again after an allocation
// that succeeded (while it succeeds, or leaving only when it fails), so each iteration
// allocates and frees again.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

bool more_work(void);

void while_it_succeeds(int n) {
  float *p = nullptr;
  while (cudaMalloc(&p, n * sizeof(float)) == cudaSuccess) { // expected-note {{the loop}}
    // expected-warning@-1 {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n);
    cudaFree(p);
    if (!more_work())
      break;
  }
}

void while_not_failed(int n) {
  float *p = nullptr;
  while (!cudaMalloc(&p, n * sizeof(float))) { // expected-note {{the loop}}
    // expected-warning@-1 {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n);
    cudaFree(p);
    if (!more_work())
      break;
  }
}

void status_while_success(int n) {
  float *p = nullptr;
  cudaError_t err;
  do { // expected-note {{the loop}}
    err = cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n);
    cudaFree(p);
  } while (err == cudaSuccess && more_work());
}

// Leaves on failure, goes on halving after each success: a probe that allocates every time.
size_t halve_while_it_fits(size_t bytes) {
  void *d = nullptr;
  cudaError_t e;
  do { // expected-note {{the loop}}
    e = cudaMalloc(&d, bytes); // expected-warning {{cudaMalloc runs on every iteration of this loop and its size varies, which also fragments device memory; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate the largest size once before the loop, or use cudaMallocAsync from a stream-ordered memory pool}}
    if (e != cudaSuccess)
      break;
    cudaMemset(d, 0, bytes);
    cudaFree(d);
    bytes /= 2;
  } while (bytes >= 4096);
  return bytes;
}
