// expected-no-diagnostics
// Reassigning the pointer after freeing it is not an overwrite leak
// (malloc-interprocedural test3 pattern).
#include <cuda_runtime.h>
#include <stdlib.h>

static void* xmalloc(size_t n) {
  void* p = malloc(n);
  if (!p)
    exit(1);
  return p;
}

void two_reports(const int* d_a, const int* d_b, int n) {
  int* h = (int*)xmalloc(n * sizeof(int));
  cudaMemcpy(h, d_a, n * sizeof(int), cudaMemcpyDeviceToHost);
  free(h);
  h = (int*)xmalloc(n * sizeof(int));
  cudaMemcpy(h, d_b, n * sizeof(int), cudaMemcpyDeviceToHost);
  free(h);
}
