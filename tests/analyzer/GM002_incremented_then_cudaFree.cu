// The device pointer is advanced past a guard element and then freed.
#include <cuda_runtime.h>

__global__ void mark(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 1;
}

void mark_with_guard(int n) {
  int* d = nullptr;
  if (cudaMalloc(&d, (n + 1) * sizeof(int)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return;
  cudaMemset(d, 0, sizeof(int));
  d++;
  mark<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is given to cudaFree at an offset from the pointer the allocation returned; pass the original pointer [GM002 mismatched-free]}}
}
