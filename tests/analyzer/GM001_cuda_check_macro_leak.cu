// CUDA_CHECK idiom: the allocation inside the macro is never freed.
// The finding is anchored at the line where the macro is invoked.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

__global__ void zero(double* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0;
}

void reset_accumulators(int n) {
  double* d_acc = nullptr;
  CUDA_CHECK(cudaMalloc(&d_acc, n * sizeof(double))); // expected-warning {{'d_acc' (device memory from cudaMalloc) is not freed on every path through 'reset_accumulators'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  zero<<<(n + 255) / 256, 256>>>(d_acc, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
} // expected-note {{'reset_accumulators' ends here without freeing 'd_acc'}}
