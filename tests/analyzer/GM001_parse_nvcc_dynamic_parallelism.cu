// A kernel that launches a kernel (dynamic parallelism) needs relocatable device code; nvcc
// builds such programs with -rdc=true, and gmemlint parses every CUDA file with -fgpu-rdc so
// that the launch is no error and the file's leak is found.
#include <cuda_runtime.h>

__global__ void refine(float *cells, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cells[i] *= 0.5f;
}

__global__ void adapt(float *cells, int n) {
  if (threadIdx.x == 0 && n > 1024)
    refine<<<(n + 255) / 256, 256>>>(cells, n);
}

int run_adaptive(int n) {
  float *d_cells = nullptr;
  cudaMalloc(&d_cells, n * sizeof(float)); // expected-warning {{'d_cells' (device memory from cudaMalloc) is not freed on every path}}
  adapt<<<1, 32>>>(d_cells, n);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return -1;
  if (n > (1 << 24))
    return -2; // expected-note {{this return leaves without freeing 'd_cells'}}
  cudaFree(d_cells);
  return 0;
}
