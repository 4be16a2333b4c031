// expected-no-diagnostics
// Loops that prefetch the managed buffer in one direction only, each toward the side that uses
// it next: to the device before the kernel, or to the device at the end of the iteration, after
// the host's read, for the next iteration's kernel. The device leg is bulk; the host reads a
// value it asks for, as GM031 accepts.
#include <cuda_runtime.h>

__global__ void relax(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * 0.5f + 1.f;
}

float device_before_kernel(int n, int iters, cudaStream_t s) {
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float));
  float total = 0.f;
  for (int it = 0; it < iters; ++it) {
    cudaMemPrefetchAsync(v, n * sizeof(float), gpu, 0, s);
    relax<<<(n + 255) / 256, 256, 0, s>>>(v, n);
    cudaStreamSynchronize(s);
    total += v[0];
  }
  cudaFree(v);
  return total;
}

float device_after_host(int n, int iters, cudaStream_t s) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation gpu = {};
  gpu.type = cudaMemLocationTypeDevice;
  gpu.id = dev;
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float));
  cudaMemPrefetchAsync(v, n * sizeof(float), gpu, 0, s);
  float total = 0.f;
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256, 0, s>>>(v, n);
    cudaStreamSynchronize(s);
    total += v[0];
    cudaMemPrefetchAsync(v, n * sizeof(float), gpu, 0, s);
  }
  cudaFree(v);
  return total;
}
