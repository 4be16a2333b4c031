// The host clears a managed histogram with memset before every launch.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void hist(const unsigned char* data, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}

void histograms(const unsigned char* const* d_batches, int nbatch, int n, unsigned* h_out) {
  unsigned* bins = nullptr;
  cudaMallocManaged(&bins, 256 * sizeof(unsigned)); // expected-warning {{'bins' (managed memory from cudaMallocManaged) is used by a kernel and by host code in the same loop, so its pages migrate to the GPU and back on every iteration; keep the data on the device and copy back only what the host needs, or prefetch it explicitly each way (cudaMemPrefetchAsync) [GM031 managed-ping-pong]}}
  for (int b = 0; b < nbatch; ++b) { // expected-note {{the loop}}
    memset(bins, 0, 256 * sizeof(unsigned)); // expected-note {{and host code touches it here, in the same loop}}
    hist<<<(n + 255) / 256, 256>>>(d_batches[b], bins, n); // expected-note {{a kernel uses it here}}
    cudaDeviceSynchronize();
    h_out[b] = bins[255];
  }
  cudaFree(bins);
}
