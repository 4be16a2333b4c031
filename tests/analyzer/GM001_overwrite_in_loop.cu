// Each iteration allocates a fresh device buffer into the same pointer; only
// the last one is freed.
#include <cuda_runtime.h>

__global__ void scale(float* v, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

void process_batches(float* const* h_batches, int nbatches, int n) {
  size_t bytes = (size_t)n * sizeof(float);
  float* d_batch = nullptr;
  for (int b = 0; b < nbatches; ++b) {
    cudaMalloc(&d_batch, bytes); // expected-warning {{'d_batch' (device memory from cudaMalloc) leaks: its only pointer is overwritten before it is freed; call cudaFree first, or allocate once outside the loop [GM001 unpaired-allocation]}} expected-note {{overwritten here while it still owns the memory}}
    cudaMemcpy(d_batch, h_batches[b], bytes, cudaMemcpyHostToDevice);
    scale<<<(n + 255) / 256, 256>>>(d_batch, n, 0.5f);
    cudaMemcpy(h_batches[b], d_batch, bytes, cudaMemcpyDeviceToHost);
  }
  cudaFree(d_batch);
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
