// The batch step allocates on every call (the loop that calls it is in train.cu): the run
// confirms the cross-file GM010 at the allocation.
#include <cuda_runtime.h>

#include "batch.cuh"

__global__ void normalise(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] / 255.0f;
}

void process_batch(const float *host_batch, int n) {
  float *d_scratch;
  cudaMalloc(&d_scratch, n * sizeof(float));
  cudaMemcpy(d_scratch, host_batch, n * sizeof(float), cudaMemcpyHostToDevice);
  normalise<<<(n + 255) / 256, 256>>>(d_scratch, n);
  cudaDeviceSynchronize();
  cudaFree(d_scratch);
}
