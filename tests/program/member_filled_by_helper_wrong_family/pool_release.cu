#include <cstdlib>
#include <cuda_runtime.h>

#include "pool.h"

StagingPool::~StagingPool() {
  free(h_pinned_); // expected-warning {{'StagingPool::h_pinned_' (pinned host memory from host_pinned, allocated in 'StagingPool') is released with free, which does not free it; use cudaFreeHost [GM002 mismatched-free]}} expected-note@pool_init.cu:13 {{allocated here with host_pinned}}
  cudaFree(d_mirror_);
}

int main() {
  StagingPool pool(4096);
  return 0;
}
