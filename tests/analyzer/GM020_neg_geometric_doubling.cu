// expected-no-diagnostics
// Amortised growth: the buffer is regrown only when the needed size exceeds
// the capacity, and the capacity doubles, so copying stays linear overall.
#include <cuda_runtime.h>
#include <stdio.h>

float* collect(const float* const* d_chunks, const int* len, int nchunks, int* total_out) {
  float* acc = nullptr;
  int total = 0;
  int cap = 0;
  for (int c = 0; c < nchunks; ++c) {
    int need = total + len[c];
    if (need > cap) {
      int new_cap = cap ? cap : 1024;
      while (new_cap < need)
        new_cap *= 2;
      float* grown = nullptr;
      cudaMalloc(&grown, new_cap * sizeof(float));
      cudaMemcpy(grown, acc, total * sizeof(float), cudaMemcpyDeviceToDevice);
      cudaFree(acc);
      acc = grown;
      cap = new_cap;
    }
    cudaMemcpy(acc + total, d_chunks[c], len[c] * sizeof(float), cudaMemcpyDeviceToDevice);
    total = need;
  }
  *total_out = total;
  return acc;
}
