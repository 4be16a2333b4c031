// expected-no-diagnostics
// free(p); p = NULL; free(p); is harmless.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Ctx { int n; };

void teardown(Ctx* ctx, bool early) {
  float* d = nullptr;
  float* h = (float*)malloc(ctx->n * sizeof(float));
  if (cudaMalloc(&d, ctx->n * sizeof(float)) != cudaSuccess) {
    free(h);
    return;
  }
  if (early) {
    cudaFree(d);
    d = nullptr;
    free(h);
    h = NULL;
  }
  cudaFree(d);
  free(h);
}
