// expected-no-diagnostics
#include <cuda_runtime.h>

#include "staging.h"

void staging_close(Staging* s) {
  cudaFreeHost(s->host);
  s->host = nullptr;
  s->dev = nullptr;
}
