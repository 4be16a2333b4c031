// One float per cudaMemcpy, element by element.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void square(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= v[i];
}

void square_on_gpu(float* h, int n) {
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  for (int i = 0; i < n; ++i) // expected-note {{the loop}}
    cudaMemcpy(&d[i], &h[i], sizeof(float), cudaMemcpyHostToDevice); // expected-warning {{cudaMemcpy moves 4 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
  square<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
