// expected-no-diagnostics
// Mapped pinned host memory (cudaHostAlloc) alternately touched by host and
// kernel: zero-copy, not unified memory; there are no page migrations.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void inc_all(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

int main() {
  const int n = 1024;
  int* h = nullptr;
  cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped);
  int* d_view = nullptr;
  cudaHostGetDevicePointer(&d_view, h, 0);
  for (int r = 0; r < 10; ++r) {
    h[r] = -r;
    inc_all<<<n / 256, 256>>>(d_view, n);
    cudaDeviceSynchronize();
  }
  printf("%d\n", h[0]);
  cudaFreeHost(h);
  return 0;
}
