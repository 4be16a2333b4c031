// expected-no-diagnostics
// The safe realloc idiom: grow into a temporary, keep the old block on failure.
#include <cuda_runtime.h>
#include <stdlib.h>

int grow_and_fill(const float* d_src, int n, int n2) {
  float* buf = (float*)malloc(n * sizeof(float));
  if (!buf)
    return -1;
  cudaMemcpy(buf, d_src, n * sizeof(float), cudaMemcpyDeviceToHost);
  float* bigger = (float*)realloc(buf, n2 * sizeof(float));
  if (!bigger) {
    free(buf);
    return -1;
  }
  buf = bigger;
  for (int i = n; i < n2; ++i) buf[i] = 0.f;
  free(buf);
  return 0;
}
