// expected-no-diagnostics
// Each pinned-host allocator paired with its own release.
#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>

int stage_three_ways(float* d_dst, const float* src, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* a = nullptr;
  if (cudaMallocHost(&a, bytes) != cudaSuccess)
    return -1;
  float* b = nullptr;
  if (cudaHostAlloc((void**)&b, bytes, cudaHostAllocPortable) != cudaSuccess) {
    cudaFreeHost(a);
    return -1;
  }
  void* c = nullptr;
  if (cuMemAllocHost(&c, bytes) != CUDA_SUCCESS) {
    cudaFreeHost(b);
    cudaFreeHost(a);
    return -1;
  }
  memcpy(a, src, bytes);
  memcpy(b, a, bytes);
  memcpy(c, b, bytes);
  cudaMemcpy(d_dst, c, bytes, cudaMemcpyHostToDevice);
  cuMemFreeHost(c);
  cudaFreeHost(b);
  cudaFreeHost(a);
  return 0;
}
