// A `break` out of the batch loop skips the per-batch cudaFree.
#include <cuda_runtime.h>

__global__ void work(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1.f;
}

int batches(float* const* h, int nb, int n) {
  int done = 0;
  for (int b = 0; b < nb; ++b) {
    float* d = nullptr;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'batches' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
      break;
    cudaMemcpy(d, h[b], n * sizeof(float), cudaMemcpyHostToDevice);
    work<<<(n + 255) / 256, 256>>>(d, n);
    if (cudaGetLastError() != cudaSuccess)
      break;
    cudaMemcpy(h[b], d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
    ++done;
  }
  return done; // expected-note {{this return after a failed call leaves without freeing 'd'}}
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
