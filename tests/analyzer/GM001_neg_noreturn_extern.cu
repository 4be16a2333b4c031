// expected-no-diagnostics
// An external [[noreturn]] error handler ends the path; no leak there.
#include <cuda_runtime.h>
#include <stdlib.h>

[[noreturn]] void fatal_error(const char* what);

void prepare(int n) {
  float* h = (float*)malloc(n * sizeof(float));
  if (!h)
    fatal_error("host alloc");
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    fatal_error("device alloc");
  for (int i = 0; i < n; ++i) h[i] = 0.f;
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaFree(d);
  free(h);
}
