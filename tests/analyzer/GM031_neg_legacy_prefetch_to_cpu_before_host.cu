// CUDA 11's prefetch to a device number: the loop sends the result to cudaCpuDeviceId after the
// kernel, before the host reads it, so that leg is bulk and explicit.
#include <cuda_runtime.h>

__global__ void relax(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * 0.5f + 1.f;
}

float run(int n, int iters, cudaStream_t s) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float));
  float total = 0.f;
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256, 0, s>>>(v, n);
    cudaMemPrefetchAsync(v, n * sizeof(float), cudaCpuDeviceId, s); // expected-note {{uses APIs removed from the CUDA toolkit (cudaMemPrefetchAsync); parsed with gmemlint's declarations of the CUDA 11 API}}
    cudaStreamSynchronize(s);
    total += v[0];
  }
  cudaFree(v);
  return total;
}
