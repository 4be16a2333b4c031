// Batched inference with variable sequence lengths: the activation buffer is
// allocated per batch with a size that depends on the batch, which fragments
// the device heap (allocate the maximum once, or use cudaMallocAsync).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void embed(const int* tokens, const float* table, float* out, int len, int dim) {
  int t = blockIdx.x;
  int d = threadIdx.x;
  if (t < len && d < dim) out[t * dim + d] = table[tokens[t] * dim + d];
}

void run_batches(const int* const* d_tokens, const int* seq_len, int nbatch,
                 const float* d_table, int dim, float* h_out) {
  for (int b = 0; b < nbatch; ++b) { // expected-note {{the loop}}
    int len = seq_len[b];
    float* d_act = nullptr;
    cudaMalloc(&d_act, (size_t)len * dim * sizeof(float)); // expected-warning {{varies}}
    embed<<<len, dim>>>(d_tokens[b], d_table, d_act, len, dim);
    cudaMemcpy(h_out, d_act, (size_t)len * dim * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_act);
    h_out += (size_t)len * dim;
  }
}
