// expected-no-diagnostics
// Classes whose teardown frees their device memory, or hands it to a release function this file
// does not define (which may free it), or that have no destructor of their own (a process-long
// cache): none is reported.
#include <cuda_runtime.h>

class Histogram {
public:
  explicit Histogram(int bins) {
    cudaStreamCreate(&stream_);
    cudaMalloc(&d_bins_, bins * sizeof(unsigned));
  }
  ~Histogram() {
    cudaStreamDestroy(stream_);
    cudaFree(d_bins_);
  }

private:
  cudaStream_t stream_;
  unsigned* d_bins_;
};

void release_pool_of(void* owner);

class PooledLut {
public:
  explicit PooledLut(size_t n) { cudaMalloc(&d_lut_, n); }
  ~PooledLut() { release_pool_of(this); }

private:
  float* d_lut_;
};

class ProcessCache {
public:
  explicit ProcessCache(size_t n) { cudaMalloc(&d_cache_, n); }

private:
  float* d_cache_;
};
