// The device address of mapped pinned memory (cudaHostGetDevicePointer) names the host block:
// cudaFreeHost of the host pointer releases it, so a cudaFree of the device address after it
// frees the block twice, and a cudaFree of the device address alone is the wrong call.
#include <cuda_runtime.h>

__global__ void fill(float* p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 1.0f;
}

void run_mapped(int n) {
  float* h;
  float* d;
  cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped); // expected-note {{allocated here with cudaHostAlloc}}
  cudaHostGetDevicePointer((void**)&d, h, 0); // expected-note {{cudaHostGetDevicePointer gives the same block another address here}}
  fill<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaFreeHost(h); // expected-note {{first freed here}}
  cudaFree(d); // expected-warning {{'h' (pinned host memory from cudaHostAlloc) is freed twice: cudaFreeHost already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}

struct Staging {
  float* host;
  float* dev;
};

void staging_cycle(Staging* s, int n) {
  cudaHostAlloc((void**)&s->host, n * sizeof(float), cudaHostAllocMapped); // expected-note {{allocated here with cudaHostAlloc}}
  cudaHostGetDevicePointer((void**)&s->dev, s->host, 0); // expected-note {{cudaHostGetDevicePointer gives the same block another address here}}
  fill<<<1, 256>>>(s->dev, n);
  cudaDeviceSynchronize();
  cudaFreeHost(s->host); // expected-note {{first freed here}}
  cudaFree(s->dev); // expected-warning {{'s->host' (pinned host memory from cudaHostAlloc) is freed twice: cudaFreeHost already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}
