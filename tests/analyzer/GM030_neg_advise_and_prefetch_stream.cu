// expected-no-diagnostics
// Two managed buffers on a stream: the input is advised read-mostly and
// prefetched, the output has its preferred location set; then a launch with
// grid, block, shared memory and stream.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void stencil(const float* in, float* out, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  if (i < n) out[i] = 0.5f * s[threadIdx.x] + 0.25f * (i > 0 ? in[i - 1] : 0.f);
}

void run(int n) {
  int dev = 0;
  cudaGetDevice(&dev);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float* in = nullptr;
  float* out = nullptr;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = (float)i;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = dev;
  cudaMemAdvise(in, n * sizeof(float), cudaMemAdviseSetReadMostly, loc);
  cudaMemPrefetchAsync(in, n * sizeof(float), loc, 0, stream);
  cudaMemAdvise(out, n * sizeof(float), cudaMemAdviseSetPreferredLocation, loc);
  const int block = 256;
  stencil<<<(n + block - 1) / block, block, block * sizeof(float), stream>>>(in, out, n);
  cudaStreamSynchronize(stream);
  cudaFree(in);
  cudaFree(out);
  cudaStreamDestroy(stream);
}
