// Loops that repeat per step though their bound is known or looks bounded: a hundred steps, an
// attempts counter the body resets, three fields inside a per-step loop (the step loop is the
// one that repeats), a benchmark's four repetitions of the same work (the counter unused), and
// twelve training steps whose sizes read the step (more than a handful).
#include <cuda_runtime.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}

unsigned read_failures(const unsigned *d_failures);

void hundred_steps(int n) {
  const int steps = 100;
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void attempts_reset(int n, unsigned *d_failures) {
  unsigned failures = 1, attempts = 0;
  while (failures && ++attempts < 10) { // expected-note {{the loop}}
    unsigned *d_count = nullptr;
    cudaMalloc(&d_count, sizeof(unsigned)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>((float *)d_count, 1);
    cudaFree(d_count);
    failures = read_failures(d_failures);
    if (failures > 100)
      attempts = 0;
  }
}

void fields_per_step(float **fields, int n, int steps) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    for (int f = 0; f < 3; ++f) {
      float *staging = nullptr;
      cudaMalloc(&staging, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
      fill<<<(n + 255) / 256, 256>>>(staging, n);
      cudaMemcpy(fields[f], staging, n * sizeof(float), cudaMemcpyDeviceToDevice);
      cudaFree(staging);
    }
  }
}

#define REPETITIONS 4

void four_repetitions(int n) {
  for (int rep = 0; rep < REPETITIONS; ++rep) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void twelve_steps(int n) {
  const int steps = 12;
  for (int step = 0; step < steps; ++step) { // expected-note {{the loop}}
    float *act = nullptr;
    cudaMalloc(&act, (n + step) * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop and its size varies, which also fragments device memory; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate the largest size once before the loop, or use cudaMallocAsync from a stream-ordered memory pool}}
    fill<<<(n + 255) / 256, 256>>>(act, n);
    cudaFree(act);
  }
}
