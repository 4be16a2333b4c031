// expected-no-diagnostics
// Mapped pinned memory freed once, through its host address: the device address from
// cudaHostGetDevicePointer is only used, never freed. The driver's twin is the same.
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void fill(float* p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 1.0f;
}

void run_mapped(int n) {
  float* h;
  float* d;
  cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void**)&d, h, 0);
  fill<<<1, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaFreeHost(h);
}

void run_mapped_driver(size_t bytes) {
  void* h;
  CUdeviceptr d;
  cuMemHostAlloc(&h, bytes, CU_MEMHOSTALLOC_DEVICEMAP);
  cuMemHostGetDevicePointer(&d, h, 0);
  cuMemsetD8(d, 0, bytes);
  cuMemFreeHost(h);
}

struct Staging {
  float* host;
  float* dev;
};

void staging_cycle(Staging* s, int n) {
  cudaHostAlloc((void**)&s->host, n * sizeof(float), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void**)&s->dev, s->host, 0);
  fill<<<1, 256>>>(s->dev, n);
  cudaDeviceSynchronize();
  cudaFreeHost(s->host);
  s->dev = nullptr;
}
