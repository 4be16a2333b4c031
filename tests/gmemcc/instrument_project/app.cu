#include <cstdio>
#include <cuda_runtime.h>
__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }
int main() {
  float *p = nullptr;
  cudaError_t e = cudaMalloc(&p, 64 * sizeof(float));
  if (e == cudaSuccess) {
    fill<<<1, 64>>>(p);
    cudaFree(p);
  }
  std::printf("cuda_app: %s\n", cudaGetErrorName(e));
  return 0;
}
