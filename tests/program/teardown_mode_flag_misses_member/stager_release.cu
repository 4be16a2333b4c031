// expected-no-diagnostics
#include <cuda_runtime.h>

#include "stager.h"

void stager_release(Stager *s) {
  cudaDeviceSynchronize();
  if (s->overlap)
    cudaFreeHost(s->h_pinned);
  cudaFree(s->d_buf);
}

int main() {
  Stager s;
  stager_init(&s, false, 1 << 16);
  stager_release(&s);
  return 0;
}
