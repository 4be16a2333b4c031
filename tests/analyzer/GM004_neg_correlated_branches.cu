// expected-no-diagnostics
// The same unmodified local flag guards the allocation and the free.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

__global__ void scale(float* v, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

void scale_maybe_staged(float* d, const float* src, int n, int use_staging) {
  int staged = use_staging && n > 1024;
  float* stage = NULL;
  if (staged)
    stage = (float*)malloc(n * sizeof(float));
  if (staged && stage) {
    memcpy(stage, src, n * sizeof(float));
    cudaMemcpy(d, stage, n * sizeof(float), cudaMemcpyHostToDevice);
  } else {
    cudaMemcpy(d, src, n * sizeof(float), cudaMemcpyHostToDevice);
  }
  scale<<<(n + 255) / 256, 256>>>(d, n, 3.f);
  if (staged)
    free(stage);
}
