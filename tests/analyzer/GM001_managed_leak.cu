// Managed memory released only on the success path.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void histogram(const unsigned char* in, int n, unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i]], 1u);
}

int count_bytes(const unsigned char* d_in, int n, unsigned int* out256) {
  unsigned int* bins = nullptr;
  if (cudaMallocManaged(&bins, 256 * sizeof(unsigned int)) != cudaSuccess) // expected-warning {{'bins' (managed memory from cudaMallocManaged) is not freed on an error path: a return after a failed call leaves 'count_bytes' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  for (int b = 0; b < 256; ++b)
    bins[b] = 0;
  histogram<<<(n + 255) / 256, 256>>>(d_in, n, bins);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    fprintf(stderr, "kernel failed\n");
    return -1; // expected-note {{this return after a failed call leaves without freeing 'bins'}}
  }
  for (int b = 0; b < 256; ++b)
    out256[b] = bins[b];
  cudaFree(bins);
  return 0;
}
