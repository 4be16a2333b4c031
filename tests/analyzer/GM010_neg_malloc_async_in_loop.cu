// expected-no-diagnostics
// Stream-ordered allocation from the device's memory pool inside the loop:
// this is the recommended fix, not a finding.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void softmax_row(const float* logits, float* probs, int cols) {
  int r = blockIdx.x;
  int c = threadIdx.x;
  if (c < cols) probs[r * cols + c] = __expf(logits[r * cols + c]);
}

void infer(const float* const* d_logits, const int* rows, int nbatch, int cols,
           float* h_probs, cudaStream_t stream) {
  for (int b = 0; b < nbatch; ++b) {
    float* d_probs = nullptr;
    size_t bytes = (size_t)rows[b] * cols * sizeof(float);
    cudaMallocAsync(&d_probs, bytes, stream);
    softmax_row<<<rows[b], cols, 0, stream>>>(d_logits[b], d_probs, cols);
    cudaMemcpyAsync(h_probs, d_probs, bytes, cudaMemcpyDeviceToHost, stream);
    cudaFreeAsync(d_probs, stream);
    h_probs += (size_t)rows[b] * cols;
  }
  cudaStreamSynchronize(stream);
}
