// expected-no-diagnostics
// The clean twin of GM001_nested_lambda_local_leak.cu in other forms of lambda: a generic outer
// lambda (its operator() is a template), an init-capture, and lambdas in a member function.
#include <cuda_runtime.h>

int generic(int n) {
  auto stage = [&](auto count) {
    float* staging = nullptr;
    cudaMalloc(&staging, count * sizeof(float));
    auto release = [&]() { cudaFree(staging); };
    release();
    return 0;
  };
  return stage(n);
}

int init_capture(int n) {
  auto stage = [&]() {
    float* staging = nullptr;
    cudaMalloc(&staging, n * sizeof(float));
    auto release = [buffer = staging]() { cudaFree(buffer); };
    release();
    return 0;
  };
  return stage();
}

struct Pipeline {
  int n;
  int run() {
    auto stage = [this]() {
      float* staging = nullptr;
      cudaMalloc(&staging, n * sizeof(float));
      auto release = [&staging]() { cudaFree(staging); };
      release();
      return 0;
    };
    return stage();
  }
};
