// expected-no-diagnostics
// cudaFree(0) and free(NULL) are no-ops (malloc.c pr6293), even repeated.
#include <cuda_runtime.h>
#include <stdlib.h>

int init_context(void) {
  // The conventional way to force lazy context creation.
  cudaFree(0);
  cudaFree(0);
  free(NULL);
  free(NULL);
  cudaFree(nullptr);
  return cudaGetLastError() == cudaSuccess ? 0 : -1;
}
