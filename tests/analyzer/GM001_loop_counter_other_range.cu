// The first-device buffer is freed in a loop over another range (which may not run when the first
// one did), never freed, or freed where the bound has changed in between: each leaks.
#include <cuda_runtime.h>

void other_range(int ndev, int nused, size_t bytes) {
  float* h = nullptr;
  for (int dev = 0; dev < ndev; ++dev)
    if (dev == 0)
      cudaMallocHost(&h, bytes); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is not freed on every path through 'other_range'; call cudaFreeHost when it is no longer needed [GM001 unpaired-allocation]}}
  for (int dev = 0; dev < nused; ++dev)
    if (dev == 0)
      cudaFreeHost(h);
} // expected-note {{'other_range' ends here without freeing 'h'}}

void never_freed(int ndev, size_t bytes) {
  float* h = nullptr;
  for (int dev = 0; dev < ndev; ++dev)
    if (dev == 0)
      cudaMallocHost(&h, bytes); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is not freed on every path through 'never_freed'; call cudaFreeHost when it is no longer needed [GM001 unpaired-allocation]}}
} // expected-note {{'never_freed' ends here without freeing 'h'}}

void bound_changes(int ndev, size_t bytes) {
  float* h = nullptr;
  for (int dev = 0; dev < ndev; ++dev)
    if (dev == ndev - 1)
      cudaMallocHost(&h, bytes); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is not freed on every path through 'bound_changes'; call cudaFreeHost when it is no longer needed [GM001 unpaired-allocation]}}
  ndev = ndev / 2;
  for (int dev = 0; dev < ndev; ++dev)
    if (dev == ndev - 1)
      cudaFreeHost(h);
} // expected-note {{'bound_changes' ends here without freeing 'h'}}
