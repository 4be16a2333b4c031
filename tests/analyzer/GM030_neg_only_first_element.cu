// expected-no-diagnostics
// A managed counter: the kernel touches only element 0 (an atomic counter
// and a flag), so there is no dense traffic to prefetch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void count_positive(const float* x, unsigned* counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] > 0.f)
    atomicAdd(&counter[0], 1u);
}

unsigned positives(const float* d_x, int n) {
  unsigned* counter = nullptr;
  cudaMallocManaged(&counter, sizeof(unsigned));
  *counter = 0;
  count_positive<<<(n + 255) / 256, 256>>>(d_x, counter, n);
  cudaDeviceSynchronize();
  unsigned c = *counter;
  cudaFree(counter);
  return c;
}
