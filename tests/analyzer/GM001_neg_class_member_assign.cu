// expected-no-diagnostics
// A method allocates into a local and hands it to a class member; the
// destructor frees the member.
#include <cuda_runtime.h>

class Histogram {
public:
  int resize(int bins) {
    unsigned int* d = nullptr;
    if (cudaMalloc(&d, bins * sizeof(unsigned int)) != cudaSuccess)
      return -1;
    cudaMemset(d, 0, bins * sizeof(unsigned int));
    if (d_bins_)
      cudaFree(d_bins_);
    d_bins_ = d;
    bins_ = bins;
    return 0;
  }
  ~Histogram() {
    if (d_bins_)
      cudaFree(d_bins_);
  }

private:
  unsigned int* d_bins_ = nullptr;
  int bins_ = 0;
};

int make_hist() {
  Histogram h;
  return h.resize(256);
}
