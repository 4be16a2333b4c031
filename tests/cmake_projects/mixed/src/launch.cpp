// Compiled as CUDA (set_source_files_properties LANGUAGE CUDA): it launches and reads blockIdx.
#include <mixed/scale.cuh>

__global__ void fill(mixed_real *x, int n) {
  int i = blockIdx.x * MIXED_BLOCK + threadIdx.x;
  if (i < n)
    x[i] = 1;
}

int fill_on_device(int n, int fail) {
  mixed_real *x = nullptr;
  cudaMalloc(&x, n * sizeof(mixed_real));
  fill<<<(n + MIXED_BLOCK - 1) / MIXED_BLOCK, MIXED_BLOCK>>>(x, n);
  if (fail)
    return -1; // BUG: x leaks
  cudaFree(x);
  return 0;
}
