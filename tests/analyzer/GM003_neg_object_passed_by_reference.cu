// expected-no-diagnostics
// The twin of GM003_object_passed_by_value_to_host_function.cu and ..._to_kernel.cu: the same
// owning class, handed by reference, by const reference or by pointer, and its buffer (not the
// object) handed to the kernel. No copy is made, so only the original's destructor frees it.
#include <cuda_runtime.h>

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) : n_(n) { cudaMalloc(&data_, n * sizeof(float)); }
  ~DeviceBuffer() { cudaFree(data_); }
  float* data() const { return data_; }
  size_t size() const { return n_; }

private:
  float* data_;
  size_t n_;
};

double checksum(const DeviceBuffer& buf);
void scale_in_place(DeviceBuffer& buf, float by);
void fill_from(DeviceBuffer* buf, const float* host);

__global__ void scale(float* data, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}

int main() {
  DeviceBuffer weights(1024);
  double sum = checksum(weights);
  scale_in_place(weights, 0.5f);
  fill_from(&weights, nullptr);
  scale<<<4, 256>>>(weights.data(), weights.size());
  return sum > 0 ? 0 : 1;
}
