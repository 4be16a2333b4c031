// The status main exits with is the argument's value on each path: `exit(ok ? EXIT_SUCCESS :
// EXIT_FAILURE)` ends the program with success where ok holds, and is checked there as
// `exit(EXIT_SUCCESS)` is.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

static bool verify(const float *h, int n) {
  for (int i = 0; i < n; ++i)
    if (h[i] != 1.0f) return false;
  return true;
}

int main(void) {
  const int n = 1 << 20;
  float *d = nullptr;
  float *h = (float *)malloc(n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed before 'main' ends the program with a success status; call cudaFree before exiting [GM005 unfreed-at-exit]}}
  fill<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = verify(h, n);
  free(h);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  exit(ok ? EXIT_SUCCESS : EXIT_FAILURE); // expected-note {{this call to 'exit' ends the program without freeing 'd'}}
}
