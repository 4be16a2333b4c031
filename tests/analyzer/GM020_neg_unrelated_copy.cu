// expected-no-diagnostics
// Per-batch buffer whose size varies, filled from the host and freed at the
// end of the iteration: an allocation plus a copy, but the copy's source is
// the host input, not the previous buffer, so nothing is concatenated.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void relu(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] < 0.f) v[i] = 0.f;
}

void run(const float* const* h_batches, const int* len, int nbatch, float* h_out) {
  int done = 0;
  for (int b = 0; b < nbatch; ++b) {
    float* d_batch = nullptr;
    cudaMalloc(&d_batch, len[b] * sizeof(float));
    cudaMemcpy(d_batch, h_batches[b], len[b] * sizeof(float), cudaMemcpyHostToDevice);
    relu<<<(len[b] + 255) / 256, 256>>>(d_batch, len[b]);
    cudaMemcpy(h_out + done, d_batch, len[b] * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_batch);
    done += len[b];
  }
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
