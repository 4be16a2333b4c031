// The catch handler returns without releasing the device buffer.
#include <cuda_runtime.h>
#include <stdexcept>

void validate_problem_size(int n);

int solve(int n) {
  double* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(double)) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'solve' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  try {
    validate_problem_size(n);
  } catch (const std::exception&) {
    return -2; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  }
  cudaMemset(d, 0, n * sizeof(double));
  cudaFree(d);
  return 0;
}
