// A shared header that declares threadIdx, blockIdx, blockDim, gridDim and warpSize for host
// code (parse_nvcc_builtin_vars.cuh): nvcc accepts it, clang rejects each declaration. gmemlint
// parses the header as nvcc does, so this file, which includes it, is analysed.
#include "parse_nvcc_builtin_vars.cuh"

__global__ void scale(float *v, int n) {
  int i = global_index();
  if (i < n)
    v[i] *= warpSize;
}

int scale_all(int n) {
  float *d_v = nullptr;
  if (cudaMalloc(&d_v, n * sizeof(float)) != cudaSuccess) // expected-warning {{'d_v' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'scale_all' without releasing it; call cudaFree before returning}}
    return -1;
  scale<<<(n + 255) / 256, 256>>>(d_v, n);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return -2; // expected-note {{this return after a failed call leaves without freeing 'd_v'}}
  cudaFree(d_v);
  return 0;
}
