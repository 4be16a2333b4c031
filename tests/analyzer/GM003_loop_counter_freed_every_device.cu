// Allocated for the first device only but freed on every iteration of the teardown loop: the
// second device frees it again.
#include <cuda_runtime.h>

void freed_every_device(int ndev, size_t bytes) {
  float* h_result = nullptr;
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    if (dev == 0)
      cudaMallocHost(&h_result, bytes); // expected-note {{allocated here with cudaMallocHost}}
  }
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    cudaFreeHost(h_result); // expected-warning {{'h_result' (pinned host memory from cudaMallocHost) is freed twice: cudaFreeHost already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}} expected-note {{first freed here}}
  }
}
