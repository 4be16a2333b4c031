// A same-file release helper is called twice on the same buffer.
#include <cuda_runtime.h>
#include <stdio.h>

static void release_staging(float* p) {
  cudaFreeHost(p);
}

int copy_out(const float* d_src, int n, bool dump) {
  float* h = nullptr;
  if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMallocHost}}
    return -1;
  cudaMemcpy(h, d_src, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (dump) {
    printf("h[0] = %f\n", h[0]);
    release_staging(h); // expected-note {{first freed here}}
  }
  release_staging(h); // expected-warning {{'h' (pinned host memory from cudaMallocHost) is freed twice: release_staging already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return 0;
}
