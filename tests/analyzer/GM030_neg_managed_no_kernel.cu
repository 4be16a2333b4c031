// expected-no-diagnostics
// Managed memory used as a host-side staging area and moved with cudaMemcpy;
// it never reaches a kernel launch. The kernel works on device memory.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void offset(int* v, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += k;
}

int main() {
  const int n = 4096;
  int* staging = nullptr;
  int* d = nullptr;
  cudaMallocManaged(&staging, n * sizeof(int));
  cudaMalloc(&d, n * sizeof(int));
  for (int i = 0; i < n; ++i) staging[i] = i;
  cudaMemcpy(d, staging, n * sizeof(int), cudaMemcpyDefault);
  offset<<<n / 256, 256>>>(d, 10, n);
  cudaMemcpy(staging, d, n * sizeof(int), cudaMemcpyDefault);
  printf("%d\n", staging[n - 1]);
  cudaFree(d);
  cudaFree(staging);
  return 0;
}
