// A pinned staging buffer that grows: reserve() frees the block the member holds on entry, which
// the constructor (or an earlier reserve) pinned with cudaMallocHost, with free(), then pins a
// larger one. reserve() also allocates the member, but the block its free receives is not that
// one: it is the constructor's family that decides. A second class frees, in the same function,
// the very block it just pinned: the flow engine reports that one, once.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

class PinnedStaging {
public:
  explicit PinnedStaging(size_t n) : cap_(n) {
    cudaMallocHost(&h_, n); // expected-note {{allocated here with cudaMallocHost}}
  }
  ~PinnedStaging() { cudaFreeHost(h_); }
  void reserve(size_t n) {
    if (n <= cap_)
      return;
    free(h_); // expected-warning {{'PinnedStaging::h_' (pinned host memory from cudaMallocHost, allocated in 'PinnedStaging') is released with free, which does not free it; use cudaFreeHost [GM002 mismatched-free]}}
    cudaMallocHost(&h_, n);
    cap_ = n;
  }

private:
  float* h_;
  size_t cap_;
};

class Scratch {
public:
  ~Scratch() { cudaFreeHost(h_); }
  void fill(size_t n) {
    cudaMallocHost(&h_, n); // expected-note {{allocated here with cudaMallocHost}}
    memset(h_, 0, n);
    free(h_); // expected-warning {{'h_' (pinned host memory from cudaMallocHost) is released with free, which frees host heap memory; use cudaFreeHost [GM002 mismatched-free]}}
    cudaMallocHost(&h_, n);
  }

private:
  float* h_;
};
