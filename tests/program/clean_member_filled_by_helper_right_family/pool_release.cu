// expected-no-diagnostics
#include <cuda_runtime.h>

#include "pool.h"

StagingPool::~StagingPool() {
  cudaFreeHost(h_pinned_);
  cudaFree(d_mirror_);
}

int main() {
  StagingPool pool(4096);
  return 0;
}
