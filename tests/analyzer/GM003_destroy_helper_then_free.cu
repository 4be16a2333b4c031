// A destroy helper that frees through the pointer but leaves it set: a later direct free of
// the same pointer frees it twice.
#include <cuda_runtime.h>

static void release(float** pp) {
  cudaFree(*pp);
}

void run(size_t n) {
  float* d = nullptr;
  cudaMalloc(&d, n); // expected-note {{allocated here with cudaMalloc}}
  release(&d); // expected-note {{first freed here}}
  cudaFree(d); // expected-warning {{freed twice}}
}
