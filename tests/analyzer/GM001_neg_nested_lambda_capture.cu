// expected-no-diagnostics
// The clean twin of GM001_nested_lambda_capture.cu: both buffers are freed two lambdas down,
// captured by reference through the lambdas between.
#include <cuda_runtime.h>

int release_through_nested(int n) {
  float* p = nullptr;
  float* q = nullptr;
  cudaMalloc(&p, n * sizeof(float));
  cudaMalloc(&q, n * sizeof(float));
  auto release = [&]() {
    auto middle = [&]() {
      auto inner = [&]() {
        cudaFree(q);
        cudaFree(p);
      };
      inner();
    };
    middle();
  };
  release();
  return 0;
}
