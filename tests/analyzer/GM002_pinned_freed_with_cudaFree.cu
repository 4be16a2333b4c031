// A pinned staging buffer (cudaMallocHost) released with cudaFree.
#include <cuda_runtime.h>
#include <string.h>

int upload_pinned(float* d_dst, const float* src, int n, cudaStream_t s) {
  size_t bytes = (size_t)n * sizeof(float);
  float* staging = nullptr;
  if (cudaMallocHost(&staging, bytes) != cudaSuccess) // expected-note {{allocated here with cudaMallocHost}}
    return -1;
  memcpy(staging, src, bytes);
  cudaMemcpyAsync(d_dst, staging, bytes, cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFree(staging); // expected-warning {{'staging' (pinned host memory from cudaMallocHost) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
  return 0;
}
