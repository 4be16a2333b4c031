// NOLINTNEXTLINE covers the next line only, for the rules it names.
#include <cuda_runtime.h>

void stage(int n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  // NOLINTNEXTLINE(GM001,GM002)
  cudaFree(h);
}

void stage_twice(int n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess) // expected-note {{allocated here with cudaMallocHost}}
    return;
  // NOLINTNEXTLINE(GM003)
  cudaFree(h); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
}

void stage_far(int n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess) // expected-note {{allocated here with cudaMallocHost}}
    return;
  // NOLINTNEXTLINE(GM002)

  cudaFree(h); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
}
