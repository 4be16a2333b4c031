// expected-no-diagnostics
// Per-stream buffers allocated into array elements and freed in a loop.
#include <cuda_runtime.h>

#define NSTREAMS 4

__global__ void touch(char* p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1;
}

void overlap(size_t chunk) {
  cudaStream_t streams[NSTREAMS];
  char* bufs[NSTREAMS];
  for (int s = 0; s < NSTREAMS; ++s) {
    cudaStreamCreate(&streams[s]);
    cudaMalloc(&bufs[s], chunk);
  }
  for (int s = 0; s < NSTREAMS; ++s)
    touch<<<(unsigned)((chunk + 255) / 256), 256, 0, streams[s]>>>(bufs[s], chunk);
  cudaDeviceSynchronize();
  for (int s = 0; s < NSTREAMS; ++s) {
    cudaFree(bufs[s]);
    cudaStreamDestroy(streams[s]);
  }
}
