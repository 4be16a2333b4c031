// A file that defines min and max as macros (after gmemlint's compat header, like every
// source) parses as before: its own macros are what its calls use.
#include <cuda_runtime.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

int stage(const float *host, int n, int cap) {
  int count = min(n, cap);
  double *d_stage = nullptr;
  cudaMalloc(&d_stage, max(count, 1) * sizeof(double)); // expected-warning {{'d_stage' (device memory from cudaMalloc) is not freed on every path}}
  if (count == 0)
    return 0; // expected-note {{this return leaves without freeing 'd_stage'}}
  cudaMemcpy(d_stage, host, count * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d_stage);
  return count;
}
