// An object whose destructor frees its buffer, passed by value to a host function: the class has
// no copy constructor of its own (or a defaulted one), so the parameter is a member-by-member
// copy holding the same pointer. The copy's destructor frees the buffer when the call ends, and
// the original frees it again (another by-value copy, its own destructor where its scope ends).
// The destructor may free through a method of its own; std::move into a by-value parameter of a
// class with no move constructor of its own copies all the same.
#include <cuda_runtime.h>
#include <utility>

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) : n_(n) { cudaMalloc(&data_, n * sizeof(float)); }
  ~DeviceBuffer() { cudaFree(data_); } // expected-note {{the copy's destructor frees it here}}
  float* data() const { return data_; }
  size_t size() const { return n_; }

private:
  float* data_;
  size_t n_;
};

struct PinnedStage {
  float* host;
  PinnedStage(size_t n) { cudaMallocHost(&host, n * sizeof(float)); }
  ~PinnedStage() { release(); }
  void release() { cudaFreeHost(host); } // expected-note {{the copy's destructor frees it here}}
};

struct Workspace {
  void* scratch;
  cudaStream_t stream;
  Workspace(size_t n, cudaStream_t s) : stream(s) { cudaMallocAsync(&scratch, n, s); }
  ~Workspace() { cudaFreeAsync(scratch, stream); } // expected-note {{the copy's destructor frees it here}}
  Workspace(const Workspace&) = default;
};

double checksum(DeviceBuffer buf);
void stage_rows(PinnedStage stage, int rows);
void run_with(Workspace ws);

int main() {
  DeviceBuffer weights(1024);
  double sum = checksum(weights); // expected-warning {{'weights.data_' is freed twice: 'weights' is passed by value to 'checksum', and the copy, made member by member (DeviceBuffer's copy or move constructor is implicit or defaulted), frees it in ~DeviceBuffer when the call ends; pass weights by reference or by pointer, or give DeviceBuffer a copy constructor that copies the buffer (or delete it) [GM003 double-free]}}
  return sum > 0 ? 0 : 1; // expected-note {{'weights' is destroyed here, and ~DeviceBuffer frees it again}}
}

void staging(int rows) {
  PinnedStage stage(rows * 64);
  stage_rows(stage, rows); // expected-warning {{'stage.host' is freed twice: 'stage' is passed by value to 'stage_rows', and the copy, made member by member (PinnedStage's copy or move constructor is implicit or defaulted), frees it in ~PinnedStage when the call ends; pass stage by reference or by pointer, or give PinnedStage a copy constructor that copies the buffer (or delete it) [GM003 double-free]}}
  if (rows > 8) {
    stage_rows(stage, 8); // expected-note {{passed by value again here: that copy frees it again}}
  }
} // expected-note {{'stage' is destroyed here, and ~PinnedStage frees it again}}

void moved_in(cudaStream_t s) {
  Workspace ws(1 << 20, s);
  run_with(std::move(ws)); // expected-warning {{'ws.scratch' is freed twice: 'ws' is passed by value to 'run_with', and the copy, made member by member (Workspace's copy or move constructor is implicit or defaulted), frees it in ~Workspace when the call ends; pass ws by reference or by pointer, or give Workspace a copy constructor that copies the buffer (or delete it) [GM003 double-free]}}
} // expected-note {{'ws' is destroyed here, and ~Workspace frees it again}}
