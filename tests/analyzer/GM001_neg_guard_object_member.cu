// expected-no-diagnostics
// The pointer is handed to a same-file guard object that frees it in its
// destructor (stored into a class member).
#include <cuda_runtime.h>

class DeviceGuard {
public:
  explicit DeviceGuard(void* p) : p_(p) {}
  ~DeviceGuard() { cudaFree(p_); }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
  void* p_;
};

int guarded(int n) {
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return -1;
  DeviceGuard guard(d);
  if (cudaMemset(d, 0, n * sizeof(float)) != cudaSuccess)
    return -1;
  return 0;
}
