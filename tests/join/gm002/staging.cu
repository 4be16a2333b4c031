// GM002 verdicts: each function frees pinned or device memory with the wrong family; the
// telemetry beside this file says what happened at run time (see expected.txt).
#include <cuda_runtime.h>
#include <stdlib.h>

void wrong_free_ran(int n) { // confirmed: the runtime counted a wrong-family free
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  cudaFree(h);
}

void other_path(int n) { // dismissed: the free ran, never on this pinned memory
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  cudaFree(h);
}

void never_called(int n) { // not-exercised: the allocation never ran
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  cudaFree(h);
}

void host_free(int n) { // unverifiable: free() is not recorded
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return;
  free(d);
}
