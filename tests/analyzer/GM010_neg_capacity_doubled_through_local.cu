// expected-no-diagnostics
// A capacity guard whose branch computes the new capacity in a local before storing it: twice
// the old capacity (or the first chunk), the vector's way. The device buffer is regrown a
// logarithm of the final size times: no churn, and the copying stays linear. The exact-fit
// twin, GM020_capacity_fit_through_local, regrows on every iteration.
#include <cuda_runtime.h>

float *collect(const float *const *chunks, int nchunks, size_t len) {
  float *buf = nullptr;
  size_t total = 0, cap = 0;
  for (int c = 0; c < nchunks; ++c) {
    if (total + len > cap) {
      size_t grown = cap ? 2 * cap : len;
      float *nb = nullptr;
      cudaMalloc(&nb, grown * sizeof(float));
      cudaMemcpy(nb, buf, total * sizeof(float), cudaMemcpyDeviceToDevice);
      cudaFree(buf);
      buf = nb;
      cap = grown;
    }
    cudaMemcpy(buf + total, chunks[c], len * sizeof(float), cudaMemcpyHostToDevice);
    total += len;
  }
  return buf;
}
