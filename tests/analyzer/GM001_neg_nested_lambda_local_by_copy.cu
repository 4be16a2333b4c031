// expected-no-diagnostics
// The clean twin of GM001_nested_lambda_local_leak.cu: buffers local to the outer lambda, and
// to a parameter of it, freed by lambdas inside it that capture them by copy (explicitly and by
// default).
#include <cuda_runtime.h>

int run_stages(int n) {
  auto stage = [](int count) {
    float* staging = nullptr;
    float* scratch = nullptr;
    cudaMalloc(&staging, count * sizeof(float));
    cudaMalloc(&scratch, count * sizeof(float));
    auto release_staging = [staging]() { cudaFree(staging); };
    auto release_scratch = [=]() { cudaFree(scratch); };
    release_staging();
    release_scratch();
    return 0;
  };
  return stage(n);
}
