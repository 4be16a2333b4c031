// goto-cleanup idiom where the cleanup block forgets d_out.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int vector_add(const float* ha, const float* hb, float* hc, int n) {
  int rc = -1;
  size_t bytes = (size_t)n * sizeof(float);
  float* d_a = nullptr;
  float* d_b = nullptr;
  float* d_out = nullptr;
  if (cudaMalloc(&d_a, bytes) != cudaSuccess)
    goto cleanup;
  if (cudaMalloc(&d_b, bytes) != cudaSuccess)
    goto cleanup;
  if (cudaMalloc(&d_out, bytes) != cudaSuccess) // expected-warning {{'d_out' (device memory from cudaMalloc) is not freed on every path: a return leaves 'vector_add' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    goto cleanup;
  cudaMemcpy(d_a, ha, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, hb, bytes, cudaMemcpyHostToDevice);
  add<<<(n + 255) / 256, 256>>>(d_a, d_b, d_out, n);
  if (cudaMemcpy(hc, d_out, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
    goto cleanup;
  rc = 0;
cleanup:
  cudaFree(d_a);
  cudaFree(d_b);
  return rc; // expected-note {{this return leaves without freeing 'd_out'}}
}
