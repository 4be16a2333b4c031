// expected-no-diagnostics
// One buffer per device or per process, allocated into a local and then kept
// in a table (stored into an element, or appended to a container) for the
// rest of the program; a later loop frees them. Setup, as when the loop
// allocates into the element directly.
#include <cuda_runtime.h>
#include <vector>

void share_buffers(const int* devices, int nprocs, size_t bytes, std::vector<void*>& ptrs) {
  for (int i = 0; i < nprocs; ++i) {
    void* ptr = nullptr;
    cudaSetDevice(devices[i]);
    cudaMalloc(&ptr, bytes);
    ptrs.push_back(ptr);
  }
}

void per_device(float** bufs, int ndev, size_t bytes) {
  for (int dev = 0; dev < ndev; ++dev) {
    float* p;
    cudaSetDevice(dev);
    cudaMalloc(&p, bytes);
    cudaMemset(p, 0, bytes);
    bufs[dev] = p;
  }
}

void release(float** bufs, int ndev) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    cudaFree(bufs[dev]);
  }
}
