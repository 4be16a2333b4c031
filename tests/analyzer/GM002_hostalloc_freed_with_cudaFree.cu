// Mapped pinned memory from cudaHostAlloc released with cudaFree.
#include <cuda_runtime.h>

__global__ void write_mapped(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int zero_copy_demo(int n) {
  int* h = nullptr;
  if (cudaHostAlloc((void**)&h, n * sizeof(int), cudaHostAllocMapped) != cudaSuccess) // expected-note {{allocated here with cudaHostAlloc}}
    return -1;
  int* d_alias = nullptr;
  cudaHostGetDevicePointer((void**)&d_alias, h, 0);
  write_mapped<<<(n + 127) / 128, 128>>>(d_alias, n);
  cudaDeviceSynchronize();
  int last = h[n - 1];
  cudaFree(h); // expected-warning {{'h' (pinned host memory from cudaHostAlloc) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
  return last;
}
