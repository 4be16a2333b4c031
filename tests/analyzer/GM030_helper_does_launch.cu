// A same-file helper does the launch; the managed buffer is passed to it and
// never prefetched. The host zeroes it first.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void histogram_clear(unsigned* bins, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nbins) bins[i] = 0u; // expected-note {{'histogram_clear' indexes it by thread here}}
}

static void clear_bins(unsigned* bins, int nbins, cudaStream_t s) {
  histogram_clear<<<(nbins + 255) / 256, 256, 0, s>>>(bins, nbins); // expected-note {{launched here without a prefetch}}
}

unsigned total(int nbins) {
  unsigned* bins = nullptr;
  cudaMallocManaged(&bins, nbins * sizeof(unsigned)); // expected-warning {{'bins' (managed memory from cudaMallocManaged) reaches kernel 'histogram_clear', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < nbins; ++i) bins[i] = 0u;
  clear_bins(bins, nbins, 0); // expected-note {{passed to 'clear_bins', which launches the kernel}}
  cudaDeviceSynchronize();
  unsigned t = 0;
  for (int i = 0; i < nbins; ++i) t += bins[i];
  cudaFree(bins);
  return t;
}
