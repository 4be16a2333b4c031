// NOLINT on the reported line silences it; NOLINT(GM001) names the rule.
#include <cuda_runtime.h>

int warm_up(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess) // NOLINT(GM001): released by the pool at shutdown
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess) // NOLINT
    return -1;
  cudaFree(a);
  cudaFree(b);
  return 0;
}

int warm_up_again(int n) {
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n) != cudaSuccess) // NOLINT(GM002): names another rule, so GM001 stays // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'warm_up_again' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'a'}}
  cudaFree(a);
  cudaFree(b);
  return 0;
}
