// expected-no-diagnostics
// Growing concatenation is GM020's finding; GM010 stays silent on that
// allocation, even when GM020 itself is not enabled.
#include <cuda_runtime.h>
#include <stdio.h>

void gather(const float* const* d_chunks, const int* chunk_len, int nchunks, float** out,
            int* out_len) {
  float* acc = nullptr;
  int total = 0;
  for (int c = 0; c < nchunks; ++c) {
    float* grown = nullptr;
    cudaMalloc(&grown, (total + chunk_len[c]) * sizeof(float));
    cudaMemcpy(grown, acc, total * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaMemcpy(grown + total, d_chunks[c], chunk_len[c] * sizeof(float),
               cudaMemcpyDeviceToDevice);
    cudaFree(acc);
    acc = grown;
    total += chunk_len[c];
  }
  *out = acc;
  *out_len = total;
}
// expected-rules-unchecked GM020: GM020 reports this regrowth, as the file's name says; GM020's own tests cover it
