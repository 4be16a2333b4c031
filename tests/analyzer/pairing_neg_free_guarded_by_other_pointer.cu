// expected-no-diagnostics
// Two weight buffers, the second sometimes made an alias of the first (`fused = raw` when
// fusion is off): the teardown frees the first only when the two differ, so nothing is freed
// twice, and each buffer is freed once.
#include <cuda_runtime.h>

void run(int n, bool fuse) {
  float *raw = nullptr, *fused = nullptr;
  cudaMalloc(&raw, n * sizeof(float));
  cudaMalloc(&fused, n * sizeof(float));
  if (!fuse) {
    cudaFree(fused);
    fused = raw;
  }
  if (raw != fused)
    cudaFree(raw);
  cudaFree(fused);
}
