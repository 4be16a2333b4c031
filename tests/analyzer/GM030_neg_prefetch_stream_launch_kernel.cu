// expected-no-diagnostics
// Prefetch on a stream, then cudaLaunchKernel with an args array on the same
// stream.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void halve(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 0.5f;
}

int main() {
  int n = 1 << 20;
  int dev = 0;
  cudaGetDevice(&dev);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float* p = nullptr;
  cudaMallocManaged(&p, n * sizeof(float));
  for (int i = 0; i < n; ++i) p[i] = 1.f;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemPrefetchAsync(p, n * sizeof(float), loc, 0, stream);
  void* args[] = {&p, &n};
  cudaLaunchKernel((void*)halve, dim3((n + 255) / 256), dim3(256), args, 0, stream);
  cudaStreamSynchronize(stream);
  printf("%f\n", p[0]);
  cudaStreamDestroy(stream);
  cudaFree(p);
  return 0;
}
