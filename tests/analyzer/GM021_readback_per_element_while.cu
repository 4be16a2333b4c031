// Results read back one int at a time in a while loop, until a sentinel.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void label(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i % 7 == 0) ? -1 : i;
}

int count_until_sentinel(int n) {
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  label<<<(n + 255) / 256, 256>>>(d, n);
  int i = 1;
  int v = 0;
  int found = 0;
  while (i < n) { // expected-note {{the loop}}
    cudaMemcpy(&v, d + i, sizeof(int), cudaMemcpyDeviceToHost); // expected-warning {{cudaMemcpy moves 4 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpy (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
    if (v < 0)
      break;
    ++found;
    ++i;
  }
  cudaFree(d);
  return found;
}
