// expected-no-diagnostics
// cudaFreeAsync on memory from cudaMalloc is allowed.
#include <cuda_runtime.h>

__global__ void zero(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.f;
}

void zero_on_stream(int n, cudaStream_t s) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return;
  zero<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaFreeAsync(d, s);
  cudaStreamSynchronize(s);
}
