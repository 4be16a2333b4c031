// A class whose destructor releases its stream but none of the device memory its constructor
// allocated: with a teardown, a member nothing frees is a leak, though no sibling is freed.
#include <cuda_runtime.h>

class Histogram {
public:
  explicit Histogram(int bins) {
    cudaStreamCreate(&stream_);
    cudaMalloc(&d_bins_, bins * sizeof(unsigned)); // expected-warning {{'Histogram::d_bins_' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'Histogram' has a destructor, '~Histogram', that does not; free it there with cudaFree [GM001 unpaired-allocation]}}
  }
  ~Histogram() { // expected-note {{'~Histogram' is defined here}}
    cudaStreamDestroy(stream_);
  }

private:
  cudaStream_t stream_;
  unsigned* d_bins_;
};
