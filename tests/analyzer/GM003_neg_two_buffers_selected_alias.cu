// expected-no-diagnostics
// An alias selects one of two buffers for use, but each buffer is freed once.
#include <cuda_runtime.h>

__global__ void copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

void pick(int n, bool first, float* h) {
  float* a = nullptr;
  float* b = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess)
    return;
  if (cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) {
    cudaFree(a);
    return;
  }
  float* src = first ? a : b;
  float* dst = first ? b : a;
  copy<<<(n + 255) / 256, 256>>>(src, dst, n);
  cudaMemcpy(h, dst, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
}
