// expected-no-diagnostics
// realloc is used once, after the loop has counted how much is needed.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

int* compact_nonzero(const int* h, int n, int* out_n) {
  int* tmp = (int*)malloc(n * sizeof(int));
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != 0)
      tmp[m++] = h[i];
  int* shrunk = (int*)realloc(tmp, (m ? m : 1) * sizeof(int));
  if (!shrunk) {
    free(tmp);
    return nullptr;
  }
  *out_n = m;
  return shrunk;
}

void upload(const int* h, int n, int** d_out, int* m) {
  int* c = compact_nonzero(h, n, m);
  cudaMalloc(d_out, *m * sizeof(int));
  cudaMemcpy(*d_out, c, *m * sizeof(int), cudaMemcpyHostToDevice);
  free(c);
}
