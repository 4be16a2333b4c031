// expected-no-diagnostics
// C++17 if-with-initializer around a host allocation.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <stdio.h>

int dump_first(const int* d_vals, int n) {
  if (int* h = (int*)malloc(n * sizeof(int)); h != nullptr) {
    cudaMemcpy(h, d_vals, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("first = %d\n", h[0]);
    free(h);
    return 0;
  }
  return -1;
}
