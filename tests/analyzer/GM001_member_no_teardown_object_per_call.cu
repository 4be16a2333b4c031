// A class with no destructor whose constructor allocates device memory, made as a local object
// on every call of a function and on every iteration of a loop: nothing of the object is freed
// anywhere, but each object dies at the end of its scope and takes the only pointer to its block
// with it. Not a process-lifetime cache: the program destroys the objects while it runs.
#include <cuda_runtime.h>

__global__ void zero(float* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = 0.f;
}

class Scratch {
public:
  explicit Scratch(int n) : n_(n) {
    cudaMalloc(&d_tmp_, n * sizeof(float)); // expected-warning {{'Scratch::d_tmp_' (device memory from cudaMalloc) is never freed: 'Scratch' has no destructor and no function in the program releases it, while 'step' makes a 'Scratch' on every call and destroys it, losing the block each time; free it in a destructor with cudaFree [GM001 unpaired-allocation]}}
  }
  void clear() { zero<<<(n_ + 255) / 256, 256>>>(d_tmp_, n_); }

private:
  int n_;
  float* d_tmp_;
};

void step(int n) {
  Scratch s(n); // expected-note {{a 'Scratch' made here goes out of scope without freeing 'd_tmp_'}}
  s.clear();
}

class Histogram {
public:
  explicit Histogram(int bins) : bins_(bins) {
    cudaMalloc(&d_bins_, bins * sizeof(unsigned)); // expected-warning {{'Histogram::d_bins_' (device memory from cudaMalloc) is never freed: 'Histogram' has no destructor and no function in the program releases it, while 'main' makes a 'Histogram' on every iteration of a loop and destroys it, losing the block each time; free it in a destructor with cudaFree [GM001 unpaired-allocation]}}
  }
  void reset() { cudaMemset(d_bins_, 0, bins_ * sizeof(unsigned)); }

private:
  int bins_;
  unsigned* d_bins_;
};

int main(int argc, char**) {
  for (int frame = 0; frame < argc * 100; ++frame) {
    Histogram h(256); // expected-note {{a 'Histogram' made here goes out of scope without freeing 'd_bins_'}}
    h.reset();
  }
  step(1024);
  return 0;
}
// expected-rules-unchecked GM010: the constructor's cudaMalloc in a loop is GM010's shape; its own tests cover that
