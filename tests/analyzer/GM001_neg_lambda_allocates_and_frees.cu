// expected-no-diagnostics
// A lambda body that allocates and frees on every path.
#include <cuda_runtime.h>

__global__ void negate(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = -v[i];
}

int negate_all(int* h, int n) {
  auto run = [](int* host, int count) -> int {
    int* d = nullptr;
    if (cudaMalloc(&d, count * sizeof(int)) != cudaSuccess)
      return -1;
    cudaMemcpy(d, host, count * sizeof(int), cudaMemcpyHostToDevice);
    negate<<<(count + 255) / 256, 256>>>(d, count);
    if (cudaGetLastError() != cudaSuccess) {
      cudaFree(d);
      return -2;
    }
    cudaMemcpy(host, d, count * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return 0;
  };
  return run(h, n);
}
