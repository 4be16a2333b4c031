// expected-no-diagnostics
// Allocation assigned inside the condition that checks it.
#include <cuda_runtime.h>
#include <stdlib.h>

int copy_back(const float* d_src, int n, float* out_max) {
  float* h;
  if ((h = (float*)malloc(n * sizeof(float))) == NULL)
    return -1;
  cudaMemcpy(h, d_src, n * sizeof(float), cudaMemcpyDeviceToHost);
  float m = h[0];
  for (int i = 1; i < n; ++i) if (h[i] > m) m = h[i];
  *out_max = m;
  free(h);
  int* idx;
  if (!(idx = (int*)calloc(n, sizeof(int))))
    return -1;
  idx[0] = 0;
  free(idx);
  return 0;
}
