// expected-no-diagnostics
// A scratch buffer that grows with the iteration and is freed and allocated
// again, but its old contents are never copied over: no concatenation.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void tri(float* s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] = (float)i;
}

void triangles(int levels) {
  float* scratch = nullptr;
  for (int l = 1; l <= levels; ++l) {
    int n = l * 1024;
    cudaFree(scratch);
    cudaMalloc(&scratch, n * sizeof(float));
    tri<<<(n + 255) / 256, 256>>>(scratch, n);
  }
  cudaDeviceSynchronize();
  cudaFree(scratch);
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
