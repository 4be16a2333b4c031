// expected-no-diagnostics
// new (std::nothrow) returns null on failure; that path leaks nothing.
#include <cuda_runtime.h>
#include <new>

int stage_ints(int* d_dst, int n) {
  int* h = new (std::nothrow) int[n];
  if (h == nullptr)
    return -1;
  for (int i = 0; i < n; ++i) h[i] = i;
  cudaMemcpy(d_dst, h, n * sizeof(int), cudaMemcpyHostToDevice);
  delete[] h;
  return 0;
}
