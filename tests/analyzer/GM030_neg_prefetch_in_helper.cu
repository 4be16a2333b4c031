// expected-no-diagnostics
// The prefetch is done by a same-file helper that prefetches its parameter,
// on the stream the kernel then runs on.
#include <cuda_runtime.h>
#include <stdio.h>

static void to_device(const void* p, size_t bytes, cudaStream_t s) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemPrefetchAsync(p, bytes, loc, 0, s);
}

__global__ void square(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

void run(int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float));
  for (int i = 0; i < n; ++i) v[i] = (float)i;
  to_device(v, n * sizeof(float), s);
  square<<<(n + 255) / 256, 256, 0, s>>>(v, n);
  cudaStreamSynchronize(s);
  cudaFree(v);
  cudaStreamDestroy(s);
}
