// expected-no-diagnostics
#include <cuda_runtime.h>

#include "setup.cuh"

int main() {
  const size_t n = 1 << 20;
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    init_thread(dev, n);
  }
  float *d_in;
  cudaMalloc(&d_in, n * sizeof(float));
  for (int step = 0; step < 1000; ++step)
    advance(d_in, n);
  cudaFree(d_in);
  return 0;
}
