// expected-no-diagnostics
// Resize pattern: free the previous buffer (if any) before reallocating.
#include <cuda_runtime.h>

__global__ void touch(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.f;
}

int run_sizes(const int* sizes, int count) {
  float* d = nullptr;
  for (int k = 0; k < count; ++k) {
    if (d)
      cudaFree(d);
    d = nullptr;
    if (cudaMalloc(&d, sizes[k] * sizeof(float)) != cudaSuccess)
      return -1;
    touch<<<(sizes[k] + 255) / 256, 256>>>(d, sizes[k]);
  }
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
