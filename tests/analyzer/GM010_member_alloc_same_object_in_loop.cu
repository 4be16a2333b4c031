// The positive twin of GM010_neg_per_device_member_alloc: the same member
// function, but called on one object on every step of a loop, so the one
// member is allocated again and again (the previous block leaks each time).
#include <cuda_runtime.h>

struct DeviceBuffer {
  float* ptr = nullptr;
  size_t count = 0;
  void alloc(size_t n) {
    count = n;
    cudaMalloc(&ptr, n * sizeof(float)); // expected-warning {{cudaMalloc in 'alloc' runs on every iteration of a loop that calls 'alloc'; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}}
  }
};

__global__ void fill(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.f;
}

void steps(DeviceBuffer* bufs, int nsteps, int n) {
  for (int s = 0; s < nsteps; ++s) {
    bufs[0].alloc(n); // expected-note {{'alloc' is called in a loop here}}
    fill<<<(n + 255) / 256, 256>>>(bufs[0].ptr, n);
  }
}
