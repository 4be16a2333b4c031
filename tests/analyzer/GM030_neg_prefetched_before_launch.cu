// expected-no-diagnostics
// The fix: prefetch the managed buffer to the device before the launch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 22;
  int dev = 0;
  cudaGetDevice(&dev);
  float* x = nullptr;
  float* y = nullptr;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = 1.f;
    y[i] = 2.f;
  }
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemPrefetchAsync(x, n * sizeof(float), loc, 0, 0);
  cudaMemPrefetchAsync(y, n * sizeof(float), loc, 0, 0);
  saxpy<<<(n + 255) / 256, 256>>>(n, 3.f, x, y);
  cudaDeviceSynchronize();
  printf("%f\n", y[0]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
