#include <cstdio>

#include "buffers.h"

__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }

int main() {
  float *p = make_buffer(64);
  if (!p) {
    std::puts("no CUDA device");
    return 0;
  }
  fill<<<1, 64>>>(p, 1.0f);
  float *scratch = nullptr;
  cudaMalloc(&scratch, 256);
  cudaFree(scratch);
  drop_buffer(p);
  return 0;
}
