// expected-no-diagnostics
// Twin of GM010_constant_fold_overflow.cu: the same loops, bounded by constants folded with
// overflow (LLONG_MIN / -1 trapped the analyzer with SIGFPE), with the allocation hoisted before
// them; and an allocation whose size is such a constant, made once.
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

void overflowing_bounds(int n) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, n * sizeof(float));
  for (long long s = 0; s < lowest / minus_one; ++s)
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  for (long long s = 0; s < big * 2 + 4; ++s)
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  for (long long s = 0; s < big + big + 4; ++s)
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  for (long long s = 0; s < big - lowest + 3; ++s)
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  for (long long s = 0; s < (quarter << 2) + 3; ++s)
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  for (long long s = 0; s < lowest; ++s) /* no last value: LLONG_MIN - 1 overflows */
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  for (long long s = 0; s > big; --s)
    fill<<<(n + 255) / 256, 256>>>(tmp, n);
  cudaFree(tmp);
}

void overflowing_size() {
  float *once = nullptr;
  cudaMalloc(&once, lowest / minus_one);
  cudaFree(once);
}
