// The twin of GM010_neg_capacity_doubled_through_local: the same guard and local, but the new
// capacity is the request itself, which grows by a chunk on every iteration. The guard holds
// every time, and the whole buffer is copied on each one.
#include <cuda_runtime.h>

float *collect(const float *const *chunks, int nchunks, size_t len) {
  float *buf = nullptr;
  size_t total = 0, cap = 0;
  for (int c = 0; c < nchunks; ++c) {
    if (total + len > cap) {
      size_t grown = total + len;
      float *nb = nullptr;
      cudaMalloc(&nb, grown * sizeof(float)); // expected-warning {{this buffer is regrown on every iteration: cudaMalloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
      cudaMemcpy(nb, buf, total * sizeof(float), cudaMemcpyDeviceToDevice); // expected-note {{the old contents are copied here}}
      cudaFree(buf); // expected-note {{and the old buffer is freed here}}
      buf = nb;
      cap = grown;
    }
    cudaMemcpy(buf + total, chunks[c], len * sizeof(float), cudaMemcpyHostToDevice);
    total += len;
  }
  return buf;
}
