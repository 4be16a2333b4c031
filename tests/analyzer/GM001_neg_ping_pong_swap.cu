// expected-no-diagnostics
// Double buffering: two buffers swapped each iteration, both freed at the end.
#include <cuda_runtime.h>

__global__ void jacobi(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = 0.5f * (in[i - 1] + in[i + 1]);
}

int relax(float* h, int n, int iters) {
  size_t bytes = (size_t)n * sizeof(float);
  float* cur = nullptr;
  float* next = nullptr;
  if (cudaMalloc(&cur, bytes) != cudaSuccess)
    return -1;
  if (cudaMalloc(&next, bytes) != cudaSuccess) {
    cudaFree(cur);
    return -1;
  }
  cudaMemcpy(cur, h, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(next, cur, bytes, cudaMemcpyDeviceToDevice);
  for (int it = 0; it < iters; ++it) {
    jacobi<<<(n + 255) / 256, 256>>>(cur, next, n);
    float* t = cur;
    cur = next;
    next = t;
  }
  cudaMemcpy(h, cur, bytes, cudaMemcpyDeviceToHost);
  cudaFree(cur);
  cudaFree(next);
  return 0;
}
