// expected-no-diagnostics
// A staging buffer that starts in the host heap and is pinned later: pin() frees the block the
// member holds on entry, the constructor's malloc, with free(), then allocates pinned memory into
// it. The function allocates the member with another family than the one it frees, and each free
// matches the block it receives: the teardown frees by the flag that says which it holds.
#include <cuda_runtime.h>
#include <stdlib.h>

class Staging {
public:
  explicit Staging(size_t n) : pinned_(false) { h_ = (float*)malloc(n); }
  ~Staging() {
    if (pinned_)
      cudaFreeHost(h_);
    else
      free(h_);
  }
  void pin(size_t n) {
    if (pinned_)
      return;
    free(h_);
    cudaMallocHost(&h_, n);
    pinned_ = true;
  }

private:
  float* h_;
  bool pinned_;
};
