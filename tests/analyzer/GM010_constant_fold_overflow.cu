// Loop bounds and sizes folded from constants whose result long long cannot hold: LLONG_MIN / -1
// (which trapped the analyzer with SIGFPE), and sums, products and shifts that overflow. Such a
// result is unknown, not the wrapped value: `big * 2 + 4` is not a loop of two iterations, so the
// allocation in it is reported as churning per step. Clean twin (the allocation hoisted out of
// the same loops): GM010_neg_constant_fold_overflow_hoisted.cu.
#include <climits>
#include <cuda_runtime.h>

__global__ void fill(float *p, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}

const long long lowest = LLONG_MIN;
const long long minus_one = -1;
const long long big = LLONG_MAX;
const long long quarter = 1LL << 62;

void quotient_overflows(int n) {
  for (long long s = 0; s < lowest / minus_one; ++s) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void product_overflows(int n) {
  for (long long s = 0; s < big * 2 + 4; ++s) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void sum_overflows(int n) {
  for (long long s = 0; s < big + big + 4; ++s) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void difference_overflows(int n) {
  for (long long s = 0; s < big - lowest + 3; ++s) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void shift_overflows(int n) {
  for (long long s = 0; s < (quarter << 2) + 3; ++s) { // expected-note {{the loop}}
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float)); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}
