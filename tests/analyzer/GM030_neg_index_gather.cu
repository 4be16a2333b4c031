// expected-no-diagnostics
// Embedding lookup: the managed table is indexed through token ids
// (table[idx[i]]), a data-dependent access pattern.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void lookup(const float* table, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[idx[i]];
}

void embed(const int* d_ids, float* d_out, int n, int vocab) {
  float* table = nullptr;
  cudaMallocManaged(&table, vocab * sizeof(float));
  for (int v = 0; v < vocab; ++v) table[v] = 0.01f * v;
  lookup<<<(n + 255) / 256, 256>>>(table, d_ids, d_out, n);
  cudaDeviceSynchronize();
  cudaFree(table);
}
