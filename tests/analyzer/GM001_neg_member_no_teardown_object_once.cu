// expected-no-diagnostics
// Classes with no destructor whose constructor allocates device memory, made once for the whole
// run: a local of main outside any loop, a function's static, a global. Nothing of them is freed
// and no object of them is destroyed while the program runs: process-lifetime state, which the
// process's exit releases.
#include <cuda_runtime.h>

class DeviceConfig {
public:
  explicit DeviceConfig(int n) : n_(n) { cudaMalloc(&d_params_, n * sizeof(float)); }
  void reset() { cudaMemset(d_params_, 0, n_ * sizeof(float)); }

private:
  int n_;
  float* d_params_;
};

class Lut {
public:
  explicit Lut(int n) : n_(n) { cudaMalloc(&d_lut_, n * sizeof(float)); }
  void reset() { cudaMemset(d_lut_, 0, n_ * sizeof(float)); }

private:
  int n_;
  float* d_lut_;
};

Lut& shared_lut() {
  static Lut lut(4096);
  return lut;
}

int main() {
  DeviceConfig config(64);
  config.reset();
  for (int step = 0; step < 100; ++step)
    shared_lut().reset();
  return 0;
}
