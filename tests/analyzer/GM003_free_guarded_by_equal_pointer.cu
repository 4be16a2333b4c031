// The teardown's guard is the wrong way round: it frees the first buffer when the two are the
// same, and the second free then releases it again.
#include <cuda_runtime.h>

void run(int n, bool fuse) {
  float *raw = nullptr, *fused = nullptr;
  cudaMalloc(&raw, n * sizeof(float)); // expected-note {{allocated here with cudaMalloc}}
  cudaMalloc(&fused, n * sizeof(float));
  if (!fuse) {
    cudaFree(fused);
    fused = raw;
  }
  if (raw == fused)
    cudaFree(raw); // expected-note {{first freed here}}
  cudaFree(fused); // expected-warning {{'raw' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place}}
}
// expected-rules-unchecked GM001: 'raw' really leaks when fuse is set and the guard fails; GM001's tests cover such paths
