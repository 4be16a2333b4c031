// expected-no-diagnostics
// Error paths that throw are not reported as leaks.
#include <cuda_runtime.h>
#include <stdexcept>

__global__ void inc(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i]++;
}

void increment(int* h, int n) {
  int* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    throw std::runtime_error("cudaMalloc failed");
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  inc<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaGetLastError() != cudaSuccess)
    throw std::runtime_error("launch failed");
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
