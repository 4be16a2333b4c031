// expected-no-diagnostics
// Two fixed-size buffers swapped each iteration (ping-pong). Nothing grows
// and nothing is allocated in the loop.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void blur(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.f;
}

void smooth(float* h, int n, int passes) {
  float* a = nullptr;
  float* b = nullptr;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
  for (int p = 0; p < passes; ++p) {
    blur<<<(n + 255) / 256, 256>>>(a, b, n);
    float* t = a;
    a = b;
    b = t;
  }
  cudaMemcpy(h, a, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(a);
  cudaFree(b);
}
