// expected-no-diagnostics
// `exit(ok ? EXIT_SUCCESS : EXIT_FAILURE)` where the memory is freed on every path, and where it
// is left only on the paths that exit with the failure status (exit(EXIT_FAILURE) is not
// checked).
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
  float *d = nullptr, *e = nullptr;
  float *h = (float *)malloc(n * sizeof(float));
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(float));
  fill<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = verify(h, n);
  free(h);
  cudaFree(d);
  if (ok)
    cudaFree(e); // e is kept for a post-mortem when the check failed
  exit(ok ? EXIT_SUCCESS : EXIT_FAILURE);
}
