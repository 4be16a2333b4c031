// expected-no-diagnostics
// On success ownership goes to the caller; on failure the buffer is freed.
#include <cuda_runtime.h>

__global__ void check_finite(const float* v, int n, int* bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !(v[i] == v[i])) atomicExch(bad, 1);
}

int upload_if_valid(const float* h, int n, float** out, int* d_bad) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_bad, 0, sizeof(int));
  check_finite<<<(n + 255) / 256, 256>>>(d, n, d_bad);
  int bad = 0;
  cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost);
  if (bad) {
    cudaFree(d);
    return 1;
  } else {
    *out = d;
  }
  return 0;
}
