// expected-no-diagnostics
// The clean twin of GM001_nested_lambda_local_leak.cu: a buffer local to the outer lambda,
// freed by the lambda inside it, which captures it by reference (explicitly and by default).
#include <cuda_runtime.h>

int run_stages(int n) {
  auto stage = [&]() {
    float* staging = nullptr;
    float* scratch = nullptr;
    cudaMalloc(&staging, n * sizeof(float));
    cudaMalloc(&scratch, n * sizeof(float));
    auto release_staging = [&staging]() { cudaFree(staging); };
    auto finish = [&]() {
      release_staging();
      cudaFree(scratch);
    };
    finish();
    return 0;
  };
  return stage();
}
