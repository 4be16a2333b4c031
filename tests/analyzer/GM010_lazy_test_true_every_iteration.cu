// Allocations under a test of their own pointer that holds on every iteration: the pointer is
// reset to null in the loop before the test or after the free, declared afresh in the body, or
// the test asks whether it is set, which it stays. Each iteration allocates again.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void reset_before_test(int n, int steps) {
  float *p = nullptr;
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    p = nullptr;
    if (!p)
      cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n);
    cudaFree(p);
  }
}

void reset_after_free(int n, int steps) {
  float *p = NULL;
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    if (p == NULL)
      cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n);
    cudaFree(p);
    p = NULL;
  }
}

void declared_in_body(int n, int steps) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    float *p = nullptr;
    if (!p)
      cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(p, n);
    cudaFree(p);
  }
}

void replaced_while_set(float *p, int n, int steps) {
  cudaMalloc(&p, n * sizeof(float));
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    if (p != nullptr) {
      cudaFree(p);
      cudaMalloc(&p, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    }
    fill<<<(n + 255) / 256, 256>>>(p, n);
  }
  cudaFree(p);
}
