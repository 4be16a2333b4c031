// A known leak: three 8 MiB buffers per step from one site, one of them freed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

int main() {
  const size_t n = 8u << 20 >> 2; // 8 MiB of floats
  float *bufs[3];
  for (int i = 0; i < 3; ++i) {
    cudaMalloc(&bufs[i], n * sizeof(float)); // LEAK-SITE: line 15
    fill<<<(unsigned)((n + 255) / 256), 256>>>(bufs[i], n);
    gmem_step();
  }
  cudaDeviceSynchronize();
  cudaFree(bufs[0]);
  std::printf("leak: done\n");
  return 0;
}
