// Which leaks are only on an error path: after a failed allocation, after a status compared
// with cudaSuccess (also one assigned inside the test), after a create helper's failure. The
// message says so; a leak that the normal path also has is reported as a normal leak.
#include <cuda_runtime.h>
#include <stdio.h>

#define CUERR                                                        \
  {                                                                  \
    cudaError_t err;                                                 \
    if ((err = cudaGetLastError()) != cudaSuccess) {                 \
      printf("CUDA error: %s, line %d\n", cudaGetErrorString(err), __LINE__); \
      return -1;                                                     \
    }                                                                \
  }

__global__ void fill(float* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

int launch_checked(int n) {
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on an error path}}
  fill<<<(n + 255) / 256, 256>>>(d, n);
  CUERR // expected-note {{without freeing 'd'}}
  cudaFree(d);
  return 0;
}

int second_fails(int n) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on an error path}}
  if (cudaMalloc(&b, n) != cudaSuccess)
    return -1; // expected-note {{without freeing 'a'}}
  cudaFree(b);
  cudaFree(a);
  return 0;
}

int also_normal(int n, int verbose) {
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n); // expected-warning {{'a' (device memory from cudaMalloc) is not freed on every path}}
  if (cudaMalloc(&b, n) != cudaSuccess) // expected-warning {{'b' (device memory from cudaMalloc) is not freed on every path}}
    return -1;
  if (verbose)
    return 1; // expected-note 2 {{this return leaves without freeing}}
  cudaFree(b);
  cudaFree(a);
  return 0;
}
