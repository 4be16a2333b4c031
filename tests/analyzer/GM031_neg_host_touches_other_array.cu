// expected-no-diagnostics
// In the loop the host works on a plain host array (a log of statistics),
// while the managed buffer is only passed to kernels.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void update(float* w, int n, float lr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * w[i];
}

void train(int n, int epochs) {
  float* w = nullptr;
  cudaMallocManaged(&w, n * sizeof(float));
  for (int i = 0; i < n; ++i) w[i] = 1.f;
  float lr_log[64];
  for (int e = 0; e < epochs; ++e) {
    float lr = 0.1f / (1 + e);
    lr_log[e % 64] = lr;
    update<<<(n + 255) / 256, 256>>>(w, n, lr);
  }
  cudaDeviceSynchronize();
  printf("%f %f\n", w[0], lr_log[0]);
  cudaFree(w);
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
