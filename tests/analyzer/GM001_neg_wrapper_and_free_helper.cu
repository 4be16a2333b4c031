// expected-no-diagnostics
// A same-file allocation wrapper and a same-file free helper used together.
#include <cuda_runtime.h>

static float* alloc_dev(size_t n) {
  float* p = nullptr;
  if (cudaMalloc(&p, n * sizeof(float)) != cudaSuccess)
    return nullptr;
  return p;
}

static void free_dev(float* p) {
  if (p)
    cudaFree(p);
}

__global__ void iota(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = (float)i;
}

float last_element(int n) {
  float* d = alloc_dev(n);
  if (!d)
    return -1.0f;
  iota<<<(n + 255) / 256, 256>>>(d, n);
  float h = 0.0f;
  cudaMemcpy(&h, d + (n - 1), sizeof(float), cudaMemcpyDeviceToHost);
  free_dev(d);
  return h;
}
