// expected-no-diagnostics
// Optional buffers: pointer starts null, allocated only when needed, and
// released with an `if (p)` guard.
#include <cuda_runtime.h>

__global__ void blend(const float* a, const float* mask, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mask ? a[i] * mask[i] : a[i];
}

int run_blend(const float* d_a, float* d_out, const float* h_mask, int n) {
  float* d_mask = nullptr;
  if (h_mask) {
    if (cudaMalloc(&d_mask, n * sizeof(float)) != cudaSuccess)
      return -1;
    cudaMemcpy(d_mask, h_mask, n * sizeof(float), cudaMemcpyHostToDevice);
  }
  blend<<<(n + 255) / 256, 256>>>(d_a, d_mask, d_out, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (d_mask != nullptr)
    cudaFree(d_mask);
  return e == cudaSuccess ? 0 : -1;
}

int run_blend2(const float* d_a, float* d_out, int n) {
  float* d_tmp = nullptr;
  if (cudaMalloc(&d_tmp, n * sizeof(float)) != cudaSuccess)
    return -1;
  blend<<<(n + 255) / 256, 256>>>(d_a, nullptr, d_tmp, n);
  cudaMemcpy(d_out, d_tmp, n * sizeof(float), cudaMemcpyDeviceToDevice);
  if (d_tmp)
    cudaFree(d_tmp);
  return 0;
}
