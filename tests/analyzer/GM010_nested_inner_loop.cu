// Nested loops (epochs x batches): the allocation is in the inner loop.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void step(float* grad, const float* batch, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grad[i] += batch[i];
}

void epochs(const float* const* d_batches, int nbatches, int nepochs, int n, float* d_grad) {
  for (int e = 0; e < nepochs; ++e) {
    for (int b = 0; b < nbatches; ++b) { // expected-note {{the loop}}
      float* d_tmp = nullptr;
      cudaMalloc((void**)&d_tmp, n * sizeof(float)); // expected-warning {{loop-invariant}}
      cudaMemcpy(d_tmp, d_batches[b], n * sizeof(float), cudaMemcpyDeviceToDevice);
      step<<<(n + 255) / 256, 256>>>(d_grad, d_tmp, n);
      cudaFree(d_tmp);
    }
  }
}
