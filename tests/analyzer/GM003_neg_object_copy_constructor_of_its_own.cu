// expected-no-diagnostics
// Twins of the by-value double frees whose class says what a copy means: the copy constructor is
// deleted (a move constructor takes the buffer and leaves the source empty), written out as a
// deep copy, or shares the buffer with a count that only the last owner frees at. Passing those
// by value frees nothing twice.
#include <cuda_runtime.h>
#include <utility>

class UniqueBuffer {
public:
  explicit UniqueBuffer(size_t n) { cudaMalloc(&data_, n * sizeof(float)); }
  UniqueBuffer(const UniqueBuffer&) = delete;
  UniqueBuffer(UniqueBuffer&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  ~UniqueBuffer() { cudaFree(data_); }

private:
  float* data_;
};

class DeepBuffer {
public:
  explicit DeepBuffer(size_t n) : n_(n) { cudaMalloc(&data_, n * sizeof(float)); }
  DeepBuffer(const DeepBuffer& other) : n_(other.n_) {
    cudaMalloc(&data_, n_ * sizeof(float));
    cudaMemcpy(data_, other.data_, n_ * sizeof(float), cudaMemcpyDeviceToDevice);
  }
  ~DeepBuffer() { cudaFree(data_); }

private:
  float* data_;
  size_t n_;
};

class SharedBuffer {
public:
  explicit SharedBuffer(size_t n) : count_(new int(1)) { cudaMalloc(&data_, n); }
  SharedBuffer(const SharedBuffer& other) : data_(other.data_), count_(other.count_) { ++*count_; }
  ~SharedBuffer() {
    if (--*count_ == 0) {
      cudaFree(data_);
      delete count_;
    }
  }

private:
  void* data_;
  int* count_;
};

class PinnedView {
public:
  PinnedView(size_t n) : owns_(true) { cudaMallocHost(&host_, n); }
  PinnedView(const PinnedView& other) : host_(other.host_), owns_(false) {}
  ~PinnedView() {
    if (owns_)
      cudaFreeHost(host_);
  }

private:
  void* host_;
  bool owns_;
};

void consume(UniqueBuffer buf);
void reduce(DeepBuffer buf);
void share(SharedBuffer buf);
void peek(PinnedView view);

void moved_into_sink() {
  UniqueBuffer buf(256);
  consume(std::move(buf));
}

void deep_copied() {
  DeepBuffer buf(256);
  reduce(buf);
  reduce(buf);
}

void counted_copies() {
  SharedBuffer buf(256);
  share(buf);
}

void non_owning_copy() {
  PinnedView view(256);
  peek(view);
}
