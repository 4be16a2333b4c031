// expected-no-diagnostics
// The clean twin of GM003_cleanup_macro_once_per_variable: the early frees set the pointer to
// null, so each later expansion of the cleanup macro frees null (a no-op) or the live buffer.
#include <cuda_runtime.h>

int step(int i);
#define CLEANUP()  \
  do {             \
    cudaFree(a);   \
    cudaFree(b);   \
  } while (0)

int pipeline(int n, int drop_a, int drop_b) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n);
  cudaMalloc(&b, n);
  if (drop_a) {
    cudaFree(a);
    a = nullptr;
  }
  if (drop_b) {
    cudaFree(b);
    b = nullptr;
  }
  if (step(1) != 0) {
    CLEANUP();
    return -1;
  }
  if (step(2) != 0) {
    CLEANUP();
    return -2;
  }
  if (step(3) != 0) {
    CLEANUP();
    return -3;
  }
  if (step(4) != 0) {
    CLEANUP();
    return -4;
  }
  if (step(5) != 0) {
    CLEANUP();
    return -5;
  }
  CLEANUP();
  return 0;
}
