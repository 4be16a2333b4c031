// A cleanup macro expanded after each failed call frees 'a' and 'b' again when an earlier branch
// already freed them: one finding per variable and first free, at the first place that frees it
// again, with the other places as notes (at most three, then a count), not one per path.
#include <cuda_runtime.h>

int step(int i);
#define CLEANUP()  \
  do {             \
    cudaFree(a);   \
    cudaFree(b);   \
  } while (0)

int pipeline(int n, int drop_a, int drop_b) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-note {{allocated here with cudaMalloc}}
  cudaMalloc(&b, n); // expected-note {{allocated here with cudaMalloc}}
  if (drop_a)
    cudaFree(a); // expected-note {{first freed here}}
  if (drop_b)
    cudaFree(b); // expected-note {{first freed here}}
  if (step(1) != 0) {
    CLEANUP(); // expected-warning {{'a' (device memory from cudaMalloc) is freed twice, here and at 5 other places}} expected-warning {{'b' (device memory from cudaMalloc) is freed twice, here and at 5 other places}}
    return -1;
  }
  if (step(2) != 0) {
    CLEANUP(); // expected-note 2 {{freed again here}}
    return -2;
  }
  if (step(3) != 0) {
    CLEANUP(); // expected-note 2 {{freed again here}}
    return -3;
  }
  if (step(4) != 0) {
    CLEANUP(); // expected-note 2 {{freed again here, and at 2 more places}}
    return -4;
  }
  if (step(5) != 0) {
    CLEANUP();
    return -5;
  }
  CLEANUP();
  return 0;
}
