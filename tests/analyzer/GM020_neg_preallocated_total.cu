// expected-no-diagnostics
// The fix for growing concatenation: sum the sizes first, allocate once,
// then copy each chunk to its offset.
#include <cuda_runtime.h>
#include <stdio.h>

float* concat(const float* const* d_chunks, const int* len, int nchunks, int* total_out) {
  int total = 0;
  for (int c = 0; c < nchunks; ++c)
    total += len[c];
  float* out = nullptr;
  cudaMalloc(&out, total * sizeof(float));
  int off = 0;
  for (int c = 0; c < nchunks; ++c) {
    cudaMemcpy(out + off, d_chunks[c], len[c] * sizeof(float), cudaMemcpyDeviceToDevice);
    off += len[c];
  }
  *total_out = total;
  return out;
}
