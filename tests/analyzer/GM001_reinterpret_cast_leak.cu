// cudaMalloc through reinterpret_cast<void**>; never freed on the error path.
#include <cuda_runtime.h>
#include <stdio.h>

int stats(const double* h, int n) {
  double* d = nullptr;
  if (cudaMalloc(reinterpret_cast<void**>(&d), n * sizeof(double)) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'stats' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  cudaError_t e = cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    fprintf(stderr, "%s\n", cudaGetErrorString(e));
    return -1; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  }
  cudaFree(d);
  return 0;
}
