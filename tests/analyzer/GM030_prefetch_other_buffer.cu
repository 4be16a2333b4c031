// Two managed buffers the host fills; only the input is prefetched. The output
// is still written densely without a prefetch or advice.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void copy_scaled(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * in[i]; // expected-note {{'copy_scaled' indexes it by thread here}}
}

void run(int n) {
  int dev = 0;
  cudaGetDevice(&dev);
  float* in = nullptr;
  float* out = nullptr;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float)); // expected-warning {{'out' (managed memory from cudaMallocManaged) reaches kernel 'copy_scaled', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i) in[i] = out[i] = (float)i;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemPrefetchAsync(in, n * sizeof(float), loc, 0, 0);
  copy_scaled<<<(n + 255) / 256, 256>>>(in, out, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
}
