#include <mixed/scale.cuh>
#include <vendor/checks.h>

__global__ void scale(mixed_real *x, mixed_real by, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= by;
}

int scale_on_device(const mixed_real *host, int n) {
  mixed_real *a = nullptr, *b = nullptr;
  if (!VENDOR_OK(cudaMalloc(&a, n * sizeof(mixed_real))))
    return -1;
  if (!VENDOR_OK(cudaMalloc(&b, n * sizeof(mixed_real))))
    return -1; // BUG: a leaks
  cudaMemcpy(a, host, n * sizeof(mixed_real), cudaMemcpyHostToDevice);
  scale<<<(n + MIXED_BLOCK - 1) / MIXED_BLOCK, MIXED_BLOCK>>>(a, 2, n);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
