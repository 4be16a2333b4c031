// cudaHostAlloc through a (void**) cast; the error path forgets it.
#include <cuda_runtime.h>

int mapped_counter(int** out_dev) {
  int* h = nullptr;
  if (cudaHostAlloc((void**)&h, sizeof(int), cudaHostAllocMapped) != cudaSuccess) // expected-warning {{'h' (pinned host memory from cudaHostAlloc) is not freed on every path: a return leaves 'mapped_counter' without releasing it; call cudaFreeHost before returning [GM001 unpaired-allocation]}}
    return -1;
  *h = 0;
  if (cudaHostGetDevicePointer((void**)out_dev, h, 0) != cudaSuccess)
    return -1;
  return 0; // expected-note {{this return leaves without freeing 'h'}}
}
