// expected-no-diagnostics
// Stream-ordered regrowth of an output buffer, guarded by the capacity:
// reallocates only when a batch needs more than the current capacity.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void decode(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] ^ 0x5a5a;
}

void run(const int* const* d_in, const int* len, int nbatch, cudaStream_t s) {
  int* out = nullptr;
  size_t cap = 0;
  size_t used = 0;
  for (int b = 0; b < nbatch; ++b) {
    size_t need = used + len[b];
    if (need > cap) {
      cap = need * 2;
      int* bigger = nullptr;
      cudaMallocAsync(&bigger, cap * sizeof(int), s);
      cudaMemcpyAsync(bigger, out, used * sizeof(int), cudaMemcpyDeviceToDevice, s);
      cudaFreeAsync(out, s);
      out = bigger;
    }
    decode<<<(len[b] + 255) / 256, 256, 0, s>>>(d_in[b], out + used, len[b]);
    used = need;
  }
  cudaFreeAsync(out, s);
  cudaStreamSynchronize(s);
}
