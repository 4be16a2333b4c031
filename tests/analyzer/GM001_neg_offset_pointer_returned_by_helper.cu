// expected-no-diagnostics
// An allocation returned to the caller through a helper that offsets the pointer is handed over,
// as `return d + 4` is (the twin of GM002_offset_through_helper).
#include <cuda_runtime.h>

static float *aligned(float *p) { return p + 4; }

float *make(size_t n) {
  float *d;
  cudaMalloc(&d, n + 16);
  return aligned(d);
}
