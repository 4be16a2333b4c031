// The allocation lives inside a lambda body, which leaks it when the
// kernel launch reports an error.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void negate(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = -v[i];
}

int negate_all(int* h, int n) {
  auto run = [](int* host, int count) -> int {
    int* d = nullptr;
    if (cudaMalloc(&d, count * sizeof(int)) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'lambda in negate_all' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
      return -1;
    cudaMemcpy(d, host, count * sizeof(int), cudaMemcpyHostToDevice);
    negate<<<(count + 255) / 256, 256>>>(d, count);
    if (cudaGetLastError() != cudaSuccess)
      return -2; // expected-note {{this return after a failed call leaves without freeing 'd'}}
    cudaMemcpy(host, d, count * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return 0;
  };
  return run(h, n);
}
