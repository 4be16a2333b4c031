// expected-no-diagnostics
// One buffer object per device, each filled through a member function that
// allocates into the object's own member. The loop calls it on a different
// element each iteration: one allocation per device, kept, so setup, as when
// the loop calls cudaMalloc(&bufs[dev].ptr, ...) itself.
#include <cuda_runtime.h>

struct DeviceBuffer {
  float* ptr = nullptr;
  size_t count = 0;
  void alloc(size_t n) {
    count = n;
    cudaMalloc(&ptr, n * sizeof(float));
  }
  void alloc_checked(size_t n) {
    if (cudaMalloc(&this->ptr, n * sizeof(float)) == cudaSuccess)
      count = n;
  }
  void release() {
    cudaFree(ptr);
    ptr = nullptr;
  }
};

void setup(DeviceBuffer* bufs, int ndev, size_t n) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    bufs[dev].alloc(n);
  }
}

void setup_through_pointers(DeviceBuffer** bufs, int ndev, size_t n) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    bufs[dev]->alloc_checked(n);
  }
}

void teardown(DeviceBuffer* bufs, int ndev) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    bufs[dev].release();
  }
}
