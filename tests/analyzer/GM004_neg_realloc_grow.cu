// expected-no-diagnostics
// malloc.c f5: p = realloc(p, n) keeps ownership in the same variable.
#include <cuda_runtime.h>
#include <stdlib.h>

int* gather_nonzero(const int* d_vals, int n, int* count) {
  int* h = (int*)malloc(n * sizeof(int));
  if (!h)
    return NULL;
  cudaMemcpy(h, d_vals, n * sizeof(int), cudaMemcpyDeviceToHost);
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (h[i]) h[k++] = h[i];
  *count = k;
  h = (int*)realloc(h, (k ? k : 1) * sizeof(int));
  return h;
}

void shrink_and_free(int n) {
  char* buf = (char*)malloc(n);
  buf = (char*)realloc(buf, n / 2 + 1);
  free(buf);
}
