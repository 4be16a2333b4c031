// expected-no-diagnostics
// The clean twin of GM001_nested_lambda_local_leak.cu, three lambdas deep: each lambda's own
// buffer is freed two lambdas further in, captured through the lambda between.
#include <cuda_runtime.h>

int run_stages(int n) {
  auto outer = [&]() {
    float* staging = nullptr;
    cudaMalloc(&staging, n * sizeof(float));
    auto middle = [&]() {
      int* counts = nullptr;
      cudaMalloc(&counts, n * sizeof(int));
      auto inner = [&]() {
        auto last = [=]() { cudaFree(counts); };
        cudaFree(staging);
        last();
      };
      inner();
    };
    middle();
    return 0;
  };
  return outer();
}
