// expected-no-diagnostics
// The catch handler frees the buffer and rethrows; the normal path frees it.
#include <cuda_runtime.h>
#include <stdexcept>

void process_on_host(float* h, int n);

int stage(const float* d_src, int n) {
  float* h = nullptr;
  if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemcpy(h, d_src, n * sizeof(float), cudaMemcpyDeviceToHost);
  try {
    if (n > (1 << 28))
      throw std::length_error("too large");
    h[0] = 0.f;
  } catch (...) {
    cudaFreeHost(h);
    throw;
  }
  cudaFreeHost(h);
  return 0;
}
