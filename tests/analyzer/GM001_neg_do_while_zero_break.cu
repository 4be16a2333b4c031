// expected-no-diagnostics
// do { ... break; } while (0) error handling with a shared release.
#include <cuda_runtime.h>

int setup(int n) {
  int ok = 0;
  float* a = nullptr;
  float* b = nullptr;
  do {
    if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess)
      break;
    if (cudaMalloc(&b, n * sizeof(float)) != cudaSuccess)
      break;
    if (cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice) != cudaSuccess)
      break;
    ok = 1;
  } while (0);
  cudaFree(b);
  cudaFree(a);
  return ok ? 0 : -1;
}
