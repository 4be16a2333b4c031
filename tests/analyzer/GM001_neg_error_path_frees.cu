// expected-no-diagnostics
// The clean twin of GM001_error_path_leaks: every path after a failed call frees what it holds.
#include <cuda_runtime.h>

void log_failure(const char* what);

int free_at_return(int n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n);
  if (cudaMalloc(&b, n) != cudaSuccess) {
    cudaFree(a);
    return -1;
  }
  cudaFree(a);
  cudaFree(b);
  return 0;
}

void free_before_end(int n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n);
  if (cudaMalloc(&b, n) != cudaSuccess) {
    log_failure("b");
  } else {
    cudaFree(b);
  }
  cudaFree(a);
}

void free_before_overwrite(int n, float* fallback) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n);
  if (cudaMalloc(&b, n) != cudaSuccess) {
    cudaFree(a);
    a = fallback;
    log_failure("b");
    return;
  }
  cudaFree(a);
  cudaFree(b);
}

void free_before_continue(int steps, int n) {
  for (int i = 0; i < steps; ++i) {
    float* a;
    cudaMalloc(&a, n);
    float* b;
    if (cudaMalloc(&b, n) != cudaSuccess) {
      cudaFree(a);
      continue;
    }
    cudaFree(b);
    cudaFree(a);
  }
}
// expected-rules-unchecked GM010: the loop allocates on every iteration as the shape needs; GM010's own tests cover that
