// The pointer to the first host buffer is overwritten by a second malloc
// before the first is freed.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

int stage_twice(const float* d_src, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* staging = (float*)malloc(bytes); // expected-warning {{'staging' (host heap memory from malloc) leaks: its only pointer is overwritten before it is freed; call free first [GM004 unpaired-host-allocation]}}
  if (!staging)
    return -1;
  cudaMemcpy(staging, d_src, bytes, cudaMemcpyDeviceToHost);
  staging = (float*)malloc(2 * bytes); // expected-note {{overwritten here while it still owns the memory}}
  if (!staging)
    return -1;
  memset(staging, 0, 2 * bytes);
  cudaMemcpy(staging, d_src, bytes, cudaMemcpyDeviceToHost);
  free(staging);
  return 0;
}
