// expected-no-diagnostics
// Error paths that end the process with exit() are not leaks.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1024;
  float* h = (float*)malloc(n * sizeof(float));
  if (!h) {
    fprintf(stderr, "out of host memory\n");
    exit(1);
  }
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "out of device memory\n");
    exit(2);
  }
  for (int i = 0; i < n; ++i) h[i] = (float)i;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d);
  free(h);
  return 0;
}
