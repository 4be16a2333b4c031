// A same-file helper that calls cudaFree on its parameter is used on
// pinned host memory; the mismatch is reported at the helper call.
#include <cuda_runtime.h>
#include <string.h>

static void release(float* p) {
  cudaFree(p);
}

int stage_and_copy(float* d_dst, const float* src, int n) {
  float* h = nullptr;
  if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMallocHost}}
    return -1;
  memcpy(h, src, n * sizeof(float));
  cudaMemcpy(d_dst, h, n * sizeof(float), cudaMemcpyHostToDevice);
  release(h); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is released with release (which calls cudaFree), which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
  return 0;
}
