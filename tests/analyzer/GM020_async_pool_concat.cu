// Growing concatenation with stream-ordered allocations: cheaper calls, but
// the copying is still quadratic.
#include <cuda_runtime.h>
#include <stdio.h>

int produce(float* d_dst, int max, cudaStream_t s); // device-side producer

float* gather(cudaStream_t s, int* total_out) {
  float* acc = nullptr;
  int total = 0;
  float* d_part = nullptr;
  cudaMallocAsync(&d_part, 1024 * sizeof(float), s);
  int got;
  while ((got = produce(d_part, 1024, s)) > 0) {
    float* grown = nullptr;
    cudaMallocAsync(&grown, (total + got) * sizeof(float), s); // expected-warning {{this buffer is regrown on every iteration: cudaMallocAsync allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    cudaMemcpyAsync(grown, acc, total * sizeof(float), cudaMemcpyDeviceToDevice, s); // expected-note {{the old contents are copied here}}
    cudaMemcpyAsync(grown + total, d_part, got * sizeof(float), cudaMemcpyDeviceToDevice, s);
    cudaFreeAsync(acc, s); // expected-note {{and the old buffer is freed here}}
    acc = grown;
    total += got;
  }
  cudaFreeAsync(d_part, s);
  *total_out = total;
  return acc;
}
