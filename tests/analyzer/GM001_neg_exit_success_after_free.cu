// expected-no-diagnostics
// exit(0) after every buffer is freed is clean; exit(1) after a failed call stays silent, as an
// error exit always has.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  size_t n = argc > 1 ? (size_t)atoi(argv[1]) : 1024;
  float *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_a, n * sizeof(float));
  if (cudaMalloc(&d_b, n * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  cudaMemcpy(d_b, d_a, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(d_a);
  cudaFree(d_b);
  exit(0);
}
