// expected-no-diagnostics
// cudaMemAdvise before the launch (preferred location on the device and
// read-mostly for the input) counts as handling the placement.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void dot_partial(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] * b[i];
}

void run(const float* d_b, float* d_out, int n) {
  int dev = 0;
  cudaGetDevice(&dev);
  float* a = nullptr;
  cudaMallocManaged(&a, n * sizeof(float));
  for (int i = 0; i < n; ++i) a[i] = 0.5f;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemAdvise(a, n * sizeof(float), cudaMemAdviseSetReadMostly, loc);
  cudaMemAdvise(a, n * sizeof(float), cudaMemAdviseSetPreferredLocation, loc);
  dot_partial<<<(n + 255) / 256, 256>>>(a, d_b, d_out, n);
  cudaDeviceSynchronize();
  cudaFree(a);
}
