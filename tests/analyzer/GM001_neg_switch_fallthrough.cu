// expected-no-diagnostics
// Cases fall through into a shared release.
#include <cuda_runtime.h>

int by_level(int level, int n) {
  int* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
    return -1;
  int rc = 0;
  switch (level) {
  case 2:
    cudaMemset(d, 0xff, n * sizeof(int));
    [[fallthrough]];
  case 1:
    cudaMemset(d, 0, sizeof(int));
    [[fallthrough]];
  case 0:
    cudaFree(d);
    break;
  default:
    rc = -1;
    cudaFree(d);
    break;
  }
  return rc;
}
