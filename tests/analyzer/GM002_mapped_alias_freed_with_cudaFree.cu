// The device address of mapped pinned memory is not device memory: releasing the block through
// it with cudaFree is the wrong call (cudaFreeHost of the host pointer is the right one).
#include <cuda_runtime.h>

__global__ void fill(float* p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 1.0f;
}

void run_mapped_device_free(int n) {
  float* h;
  float* d;
  cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped); // expected-note {{allocated here with cudaHostAlloc}}
  cudaHostGetDevicePointer((void**)&d, h, 0); // expected-note {{cudaHostGetDevicePointer gives the same block another address here}}
  fill<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaFree(d); // expected-warning {{'h' (pinned host memory from cudaHostAlloc) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
}
