// A class's constructor fills its device buffers through a helper that takes each member's
// address (`this->` and the implicit member alike); the destructor frees one and forgets the
// other. The helper's summary (it allocates through its `void **` parameter) makes each call an
// allocation into the member.
#include <cuda_runtime.h>

static void dev_alloc(void** p, size_t bytes) {
  cudaMalloc(p, bytes);
}

class Halo {
public:
  explicit Halo(size_t n) {
    dev_alloc((void**)&this->d_send_, n * sizeof(float));
    dev_alloc((void**)&d_recv_, n * sizeof(float)); // expected-warning {{'Halo::d_recv_' (device memory from dev_alloc) is never freed: no function in the program releases it, while 'Halo::d_send_' of the same Halo is freed in '~Halo'; free it there with cudaFree [GM001 unpaired-allocation]}}
  }
  ~Halo() {
    cudaFree(d_send_); // expected-note {{'Halo::d_send_' is freed here, in '~Halo'}}
  }

private:
  float* d_send_;
  float* d_recv_;
};
