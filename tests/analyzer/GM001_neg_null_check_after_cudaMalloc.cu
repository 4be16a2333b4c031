// expected-no-diagnostics
// The cudaMalloc status is ignored but the pointer (initialised to null) is
// checked; on failure nothing was allocated.
#include <cuda_runtime.h>
#include <stdio.h>

int quick(int n) {
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  if (!d) {
    fprintf(stderr, "allocation failed\n");
    return -1;
  }
  cudaMemset(d, 0, n * sizeof(int));
  cudaFree(d);
  return 0;
}
