// expected-no-diagnostics
#include <cuda_runtime.h>

#include "holder.h"

int main() {
  Holder h;
  float *d;
  cudaMalloc(&d, 64);
  adopt(&h, d);
  cudaFree(h.p);
  return 0;
}
