// NOLINTBEGIN/NOLINTEND cover a region; findings after NOLINTEND are reported again.
#include <cuda_runtime.h>
#include <stdlib.h>

// NOLINTBEGIN(GM002)
void legacy_release(int n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess)
    return;
  cudaFree(h);
}
// NOLINTEND(GM002)

void current_release(int n) {
  float *h = nullptr;
  if (cudaMallocHost(&h, n) != cudaSuccess) // expected-note {{allocated here with cudaMallocHost}}
    return;
  cudaFree(h); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is released with cudaFree, which frees device memory; use cudaFreeHost [GM002 mismatched-free]}}
}

/* NOLINTBEGIN */
char *leaky_dup(int n) {
  char *p = (char *)malloc(n);
  char *q = (char *)malloc(n);
  free(p);
  return nullptr;
}
/* NOLINTEND */
