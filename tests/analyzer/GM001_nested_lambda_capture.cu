// Lambdas within lambdas: the outer lambda's captures are every reference, however deeply
// nested, to the function's variables. 'q' is freed two lambdas down and so is not reported;
// 'p' is never freed and is.
#include <cuda_runtime.h>

int release_through_nested(int n) {
  float* p = nullptr;
  float* q = nullptr;
  cudaMalloc(&p, n * sizeof(float)); // expected-warning {{'p' (device memory from cudaMalloc) is not freed on every path: a return leaves 'release_through_nested' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
  cudaMalloc(&q, n * sizeof(float));
  auto release = [&]() {
    auto middle = [&]() {
      auto inner = [&]() { cudaFree(q); };
      inner();
    };
    middle();
  };
  release();
  return 0; // expected-note {{this return leaves without freeing 'p'}}
}
