// expected-no-diagnostics
// goto-cleanup idiom: pointers start as NULL and the single cleanup block
// frees all of them (cudaFree(NULL) and free(NULL) are no-ops).
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int vector_add(const float* ha, const float* hb, int n, float* result0) {
  int rc = -1;
  size_t bytes = (size_t)n * sizeof(float);
  float* d_a = NULL;
  float* d_b = NULL;
  float* d_c = NULL;
  float* h_c = NULL;
  if (cudaMalloc(&d_a, bytes) != cudaSuccess)
    goto cleanup;
  if (cudaMalloc(&d_b, bytes) != cudaSuccess)
    goto cleanup;
  if (cudaMalloc(&d_c, bytes) != cudaSuccess)
    goto cleanup;
  h_c = (float*)malloc(bytes);
  if (!h_c)
    goto cleanup;
  cudaMemcpy(d_a, ha, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, hb, bytes, cudaMemcpyHostToDevice);
  add<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
  if (cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost) != cudaSuccess)
    goto cleanup;
  *result0 = h_c[0];
  rc = 0;
cleanup:
  free(h_c);
  cudaFree(d_c);
  cudaFree(d_b);
  cudaFree(d_a);
  return rc;
}
