// expected-no-diagnostics
#include <cuda_runtime.h>

#include "holder.h"

void adopt_and_release(Holder *h, float *q) {
  h->p = q;
  cudaFree(h->p);
}
