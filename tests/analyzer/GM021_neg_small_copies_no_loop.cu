// expected-no-diagnostics
// A handful of small copies of scalar parameters, outside any loop.
#include <cuda_runtime.h>
#include <stdio.h>

struct Params {
  float alpha;
  float beta;
  int n;
};

__global__ void axpby(const Params* p, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p->n) y[i] = p->alpha * x[i] + p->beta * y[i];
}

void run(const float* d_x, float* d_y, float alpha, float beta, int n) {
  Params* d_p = nullptr;
  cudaMalloc(&d_p, sizeof(Params));
  cudaMemcpy(&d_p->alpha, &alpha, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(&d_p->beta, &beta, sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(&d_p->n, &n, sizeof(int), cudaMemcpyHostToDevice);
  axpby<<<(n + 255) / 256, 256>>>(d_p, d_x, d_y);
  cudaDeviceSynchronize();
  cudaFree(d_p);
}
