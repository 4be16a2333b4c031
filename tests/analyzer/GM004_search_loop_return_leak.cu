// Returning from inside a search loop skips the free.
#include <cuda_runtime.h>
#include <stdlib.h>

int find_value(const int* d_vals, int n, int needle) {
  int* h = (int*)malloc(n * sizeof(int)); // expected-warning {{'h' (host heap memory from malloc) is not freed on every path: a return leaves 'find_value' without releasing it; call free before returning [GM004 unpaired-host-allocation]}}
  if (!h)
    return -1;
  cudaMemcpy(h, d_vals, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (h[i] == needle)
      return i; // expected-note {{this return leaves without freeing 'h'}}
  }
  free(h);
  return -1;
}
