// expected-no-diagnostics
// abort() on an invariant violation ends the path.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

void copy_checked(float* d_dst, const float* d_src, int n) {
  float* tmp = nullptr;
  if (cudaMallocHost(&tmp, n * sizeof(float)) != cudaSuccess)
    return;
  cudaMemcpy(tmp, d_src, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (tmp[i] != tmp[i]) {
      fprintf(stderr, "NaN at %d\n", i);
      abort();
    }
  }
  cudaMemcpy(d_dst, tmp, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFreeHost(tmp);
}
