// expected-no-diagnostics
// malloc.c f6: early return when malloc returned NULL.
#include <cuda_runtime.h>
#include <stdlib.h>

int download(const double* d_src, int n, double* out_sum) {
  double* h = (double*)malloc(n * sizeof(double));
  if (!h)
    return -1;
  cudaMemcpy(h, d_src, n * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < n; ++i) s += h[i];
  *out_sum = s;
  free(h);
  return 0;
}

int download2(const double* d_src, int n) {
  double* h = (double*)calloc(n, sizeof(double));
  if (h == NULL)
    return -1;
  else {
    cudaMemcpy(h, d_src, n * sizeof(double), cudaMemcpyDeviceToHost);
    free(h);
  }
  return 0;
}
