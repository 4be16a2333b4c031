// expected-no-diagnostics
// RAII wrapper: member allocated in the constructor, freed in the destructor.
#include <cuda_runtime.h>
#include <stddef.h>

template <typename T>
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) : n_(n) {
    cudaMalloc(&ptr_, n * sizeof(T));
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }
  size_t size() const { return n_; }

private:
  T* ptr_ = nullptr;
  size_t n_;
};

class PinnedBuffer {
public:
  explicit PinnedBuffer(size_t bytes) { cudaMallocHost(&host_, bytes); }
  ~PinnedBuffer() { cudaFreeHost(host_); }
  void* data() { return host_; }

private:
  void* host_ = nullptr;
};

__global__ void fill(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 1.f;
}

void use_buffers(int n) {
  DeviceBuffer<float> d(n);
  PinnedBuffer h(n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d.get(), n);
  cudaMemcpy(h.data(), d.get(), n * sizeof(float), cudaMemcpyDeviceToHost);
}
