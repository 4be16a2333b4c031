// expected-no-diagnostics
// A per-device loop that makes each device current through the project's own wrapper of
// cudaSetDevice: one small buffer per GPU is setup, as with cudaSetDevice written in the loop.
// The twin GM010_small_buffer_behind_logging_helper calls a helper that selects no device.
#include <cuda_runtime.h>

static void select_gpu(int dev) {
  cudaSetDevice(dev);
}

void per_device(float **bufs, int ndev) {
  for (int d = 0; d < ndev; ++d) {
    select_gpu(d);
    cudaMalloc(&bufs[d], 256);
  }
}
