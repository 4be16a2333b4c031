// expected-no-diagnostics
// Linux-kernel style unwinding: one label per acquired resource.
#include <cuda_runtime.h>

int setup_pipeline(const float* src, float* dst, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* h_pinned;
  float* d_in;
  float* d_out;
  if (cudaMallocHost(&h_pinned, bytes) != cudaSuccess)
    goto err_none;
  if (cudaMalloc(&d_in, bytes) != cudaSuccess)
    goto err_pinned;
  if (cudaMalloc(&d_out, bytes) != cudaSuccess)
    goto err_in;
  for (int i = 0; i < n; ++i) h_pinned[i] = src[i];
  cudaMemcpy(d_in, h_pinned, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDeviceToDevice);
  cudaMemcpy(h_pinned, d_out, bytes, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) dst[i] = h_pinned[i];
  cudaFree(d_out);
  cudaFree(d_in);
  cudaFreeHost(h_pinned);
  return 0;

err_in:
  cudaFree(d_in);
err_pinned:
  cudaFreeHost(h_pinned);
err_none:
  return -1;
}
