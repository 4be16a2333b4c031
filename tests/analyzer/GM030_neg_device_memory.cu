// expected-no-diagnostics
// Dense kernel over cudaMalloc'ed device memory: no unified memory involved.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(float* v, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v[i] *= s;
}

void run(float* h, int n) {
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<120, 256>>>(d, 2.f, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
