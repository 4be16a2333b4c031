// expected-no-diagnostics
// The prefetch is issued through an alias of the managed pointer (a typed
// view of the same allocation).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void widen(const unsigned short* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] / 65535.f;
}

void convert(float* d_out, int n) {
  void* raw = nullptr;
  cudaMallocManaged(&raw, n * sizeof(unsigned short));
  unsigned short* samples = static_cast<unsigned short*>(raw);
  for (int i = 0; i < n; ++i) samples[i] = (unsigned short)(i * 13);
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaMemPrefetchAsync(raw, n * sizeof(unsigned short), loc, 0, 0);
  widen<<<(n + 255) / 256, 256>>>(samples, d_out, n);
  cudaDeviceSynchronize();
  cudaFree(raw);
}
