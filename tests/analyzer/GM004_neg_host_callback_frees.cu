// expected-no-diagnostics
// A host staging buffer handed to cudaLaunchHostFunc, whose callback frees
// it once the stream reaches that point.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

static void CUDART_CB free_staging(void* p) { free(p); }

int async_upload(float* d_dst, const float* src, int n, cudaStream_t s) {
  float* staging = (float*)malloc(n * sizeof(float));
  if (!staging)
    return -1;
  memcpy(staging, src, n * sizeof(float));
  cudaMemcpyAsync(d_dst, staging, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaLaunchHostFunc(s, free_staging, staging);
  return 0;
}
