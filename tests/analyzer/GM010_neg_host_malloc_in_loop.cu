// expected-no-diagnostics
// Host malloc/new in a loop is not a GPU allocation; the device buffer is
// allocated once outside.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void negate(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = -v[i];
}

void roundtrip(int nrounds, int n) {
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  for (int r = 0; r < nrounds; ++r) {
    int* h = (int*)malloc(n * sizeof(int));
    int* check = new int[n];
    for (int i = 0; i < n; ++i) h[i] = i + r;
    cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
    negate<<<(n + 255) / 256, 256>>>(d, n);
    cudaMemcpy(check, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    delete[] check;
    free(h);
  }
  cudaFree(d);
}
