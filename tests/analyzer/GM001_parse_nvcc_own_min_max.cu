// Programs that bring their own min and max still parse with gmemlint's host declarations of
// nvcc's overloads: a helper header's `inline int max(int, int)` redeclares the declared one,
// templates lose to the exact non-template match as under nvcc, and std::min / std::max are
// untouched.
#include <algorithm>
#include <cuda_runtime.h>

inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
template <typename T> __host__ __device__ T max(T a, T b, T c) { return max(max(a, b), c); }
template <typename T> T clamp_to(T v, T lo, T hi) { return std::min(std::max(v, lo), hi); }

int pick_blocks(int n, unsigned limit) {
  int blocks = max((n + 255) / 256, 1);
  unsigned capped = min((unsigned)blocks, limit);
  float *d_scratch = nullptr;
  cudaMalloc(&d_scratch, capped * sizeof(float)); // expected-warning {{'d_scratch' (device memory from cudaMalloc) is not freed on every path}}
  if (clamp_to(blocks, 1, 1024) != max(blocks, 1, 2) || std::max(n, 0) == 0)
    return -1; // expected-note {{this return leaves without freeing 'd_scratch'}}
  cudaFree(d_scratch);
  return (int)capped;
}
