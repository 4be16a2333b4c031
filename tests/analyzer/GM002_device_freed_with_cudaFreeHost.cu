// cudaFreeHost called on device memory from cudaMalloc.
#include <cuda_runtime.h>

struct Frame { int w, h; };

int blank_frame(const Frame& f, unsigned char* out) {
  size_t bytes = (size_t)f.w * f.h * 4;
  unsigned char* d_rgba = nullptr;
  if (cudaMalloc(&d_rgba, bytes) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return -1;
  cudaMemset(d_rgba, 0xff, bytes);
  cudaMemcpy(out, d_rgba, bytes, cudaMemcpyDeviceToHost);
  cudaFreeHost(d_rgba); // expected-warning {{'d_rgba' (device memory from cudaMalloc) is released with cudaFreeHost, which frees pinned host memory; use cudaFree [GM002 mismatched-free]}}
  return 0;
}
