// CUDA 12.8's built-in atomics (__nv_atomic_load_n, __nv_atomic_fetch_add, ...) with their
// __NV_ATOMIC_* order and __NV_THREAD_SCOPE_* scope constants: nvcc knows them, clang does not;
// gmemlint's compat header declares them, so the file parses and its leak is found.
#include <cuda_runtime.h>

__global__ void histogram(const int *keys, unsigned long long *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long seen = __nv_atomic_load_n(&bins[keys[i]], __NV_ATOMIC_RELAXED);
  __nv_atomic_fetch_add(&bins[keys[i]], 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  if (seen == 0)
    __nv_atomic_store_n(&bins[0], seen, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST);
}

int count_keys(const int *d_keys, int n, int nbins) {
  unsigned long long *d_bins = nullptr;
  cudaMalloc(&d_bins, nbins * sizeof(unsigned long long)); // expected-warning {{'d_bins' (device memory from cudaMalloc) is not freed on every path}}
  cudaMemset(d_bins, 0, nbins * sizeof(unsigned long long));
  histogram<<<(n + 255) / 256, 256>>>(d_keys, d_bins, n);
  if (cudaGetLastError() != cudaSuccess)
    return -1;
  if (nbins > 4096)
    return -2; // expected-note {{this return leaves without freeing 'd_bins'}}
  cudaFree(d_bins);
  return 0;
}
