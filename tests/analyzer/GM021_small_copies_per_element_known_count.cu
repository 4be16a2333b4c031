// Small copies in a loop whose count is known when compiled but large (a 4096-entry table
// uploaded one 16-byte entry at a time): a stream of small copies.
#include <cuda_runtime.h>

void upload_table(float4 *d_table, const float4 *h_table, cudaStream_t stream) {
  for (int i = 0; i < 4096; ++i) // expected-note {{the loop}}
    cudaMemcpyAsync(d_table + i, h_table + i, sizeof(float4), cudaMemcpyHostToDevice, stream); // expected-warning {{cudaMemcpyAsync moves 16 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpyAsync (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D}}
  cudaStreamSynchronize(stream);
}
