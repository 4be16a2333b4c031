// expected-no-diagnostics
// Host initialises the managed buffer before the loop and reads it after;
// the loop only launches kernels, so pages migrate once each way.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void heat(float* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) t[i] = 0.25f * t[i - 1] + 0.5f * t[i] + 0.25f * t[i + 1];
}

int main() {
  const int n = 1 << 16;
  float* t = nullptr;
  cudaMallocManaged(&t, n * sizeof(float));
  for (int i = 0; i < n; ++i) t[i] = (i == n / 2) ? 100.f : 0.f;
  for (int step = 0; step < 1000; ++step)
    heat<<<n / 256, 256>>>(t, n);
  cudaDeviceSynchronize();
  float peak = 0.f;
  for (int i = 0; i < n; ++i)
    if (t[i] > peak) peak = t[i];
  printf("%f\n", peak);
  cudaFree(t);
  return 0;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
