// Managed memory touched on the host, then read densely by a kernel: without a prefetch the GPU
// faults the pages over; the same with cudaMemPrefetchAsync first.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const size_t n = 64u << 20; // 256 MiB of floats
  float *faulting, *prefetched;
  cudaMallocManaged(&faulting, n * sizeof(float));   // FAULT-SITE: line 15
  cudaMallocManaged(&prefetched, n * sizeof(float)); // PREFETCH-SITE: line 16
  for (size_t i = 0; i < n; ++i)
    faulting[i] = prefetched[i] = 1.0f;
  int device = 0;
  cudaGetDevice(&device);
  cudaMemLocation loc = {cudaMemLocationTypeDevice, device};
  cudaMemPrefetchAsync(prefetched, n * sizeof(float), loc, 0, 0);
  scale<<<(unsigned)((n + 255) / 256), 256>>>(faulting, n);
  scale<<<(unsigned)((n + 255) / 256), 256>>>(prefetched, n);
  cudaDeviceSynchronize();
  std::printf("managed: %.1f %.1f\n", faulting[n - 1], prefetched[n - 1]);
  cudaFree(faulting);
  cudaFree(prefetched);
  return 0;
}
