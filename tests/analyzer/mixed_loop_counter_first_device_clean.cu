// expected-no-diagnostics
// Per-device loops that allocate one shared buffer on one iteration only (the first device, the
// last one, counting up or down) and free it under the same test in a teardown loop over the same
// devices: the counter equals each value on one iteration, the first iteration is the one where
// it equals its start, the last the one where it equals the bound's last value, and two loops
// over the same range both run or neither does. No leak, no allocation per iteration, no double
// free.
#include <cuda_runtime.h>

void first_device(size_t bytes) {
  int ndev = 0;
  cudaGetDeviceCount(&ndev);
  float* d_part[8];
  float* h_result = nullptr;
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    if (dev == 0)
      cudaMallocHost(&h_result, bytes);
    cudaMalloc(&d_part[dev], bytes);
  }
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpy(h_result, d_part[dev], bytes, cudaMemcpyDeviceToHost);
  }
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    if (dev == 0)
      cudaFreeHost(h_result);
    cudaFree(d_part[dev]);
  }
}

// Torn down from the last device to the first: device 0 is the last iteration.
void teardown_counting_down(int ndev, size_t bytes) {
  float* d_part[8];
  float* h_ref = nullptr;
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    if (0 == dev)
      cudaMallocHost(&h_ref, bytes);
    cudaMalloc(&d_part[dev], bytes);
  }
  for (int dev = ndev - 1; dev >= 0; --dev) {
    cudaSetDevice(dev);
    cudaFree(d_part[dev]);
    if (0 == dev)
      cudaFreeHost(h_ref);
  }
}

void last_device(int ndev, size_t bytes) {
  float* h_sum = nullptr;
  for (int dev = 0; dev < ndev; dev++) {
    cudaSetDevice(dev);
    if (dev == ndev - 1)
      cudaMallocHost(&h_sum, bytes);
  }
  for (int dev = 0; dev < ndev; dev++)
    if (dev == ndev - 1)
      cudaFreeHost(h_sum);
}

void else_of_not_first(int ndev, size_t bytes) {
  float* h_stage = nullptr;
  for (int dev = 0; dev < ndev; dev++) {
    if (dev != 0)
      cudaSetDevice(dev);
    else
      cudaMallocHost(&h_stage, bytes);
  }
  for (int dev = 0; dev < ndev; dev++) {
    if (dev != 0)
      continue;
    cudaFreeHost(h_stage);
  }
}

float* make_staging(size_t bytes) {
  float* h = nullptr;
  cudaMallocHost(&h, bytes);
  return h;
}

// A helper that allocates on every call, called for the first device only.
void helper_on_first_device(int ndev, size_t bytes) {
  float* h = nullptr;
  for (int dev = 0; dev < ndev; ++dev)
    if (dev == 0)
      h = make_staging(bytes);
  for (int dev = 0; dev < ndev; ++dev)
    if (dev == 0)
      cudaFreeHost(h);
}
