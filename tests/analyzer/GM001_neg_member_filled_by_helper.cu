// expected-no-diagnostics
// GM001_member_filled_by_helper.cu's class with a destructor that frees both buffers the helper
// filled.
#include <cuda_runtime.h>

static void dev_alloc(void** p, size_t bytes) {
  cudaMalloc(p, bytes);
}

class Halo {
public:
  explicit Halo(size_t n) {
    dev_alloc((void**)&this->d_send_, n * sizeof(float));
    dev_alloc((void**)&d_recv_, n * sizeof(float));
  }
  ~Halo() {
    cudaFree(d_send_);
    cudaFree(d_recv_);
  }

private:
  float* d_send_;
  float* d_recv_;
};
