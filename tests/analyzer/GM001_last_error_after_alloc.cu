// The status read back with cudaGetLastError() after an allocation is that allocation's: on its
// error branch nothing was allocated. An allocation made before it is still live there (an
// error-path leak), and so is one followed by another call that may fail (a kernel launch).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void zero(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}

int earlier_allocation(int n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(float)); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'earlier_allocation' without releasing it; call cudaFree before returning}}
  cudaMalloc(&b, n * sizeof(float));
  cudaError_t err = cudaGetLastError();
  if (err) {
    printf("%s\n", cudaGetErrorString(err));
    return -1; // expected-note {{this return after a failed call leaves without freeing 'a'}}
  }
  cudaFree(b);
  cudaFree(a);
  return 0;
}

int launch_between(int n) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'launch_between' without releasing it; call cudaFree before returning}}
  zero<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaPeekAtLastError() != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  cudaFree(d);
  return 0;
}

int read_twice(int n, int verbose) {
  float *d = nullptr;
  cudaMalloc(&d, n * sizeof(float)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'read_twice' without releasing it; call cudaFree before returning}}
  if (cudaGetLastError() != cudaSuccess)
    return -1;
  if (verbose)
    return 1; // expected-note {{this return leaves without freeing 'd'}}
  cudaFree(d);
  return 0;
}
