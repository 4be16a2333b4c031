// expected-no-diagnostics
// Early return from a nested search loop, after releasing the buffer.
#include <cuda_runtime.h>
#include <stdlib.h>

int find_in_grid(const int* d_grid, int w, int h, int needle) {
  int* g = (int*)malloc((size_t)w * h * sizeof(int));
  if (!g)
    return -1;
  cudaMemcpy(g, d_grid, (size_t)w * h * sizeof(int), cudaMemcpyDeviceToHost);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (g[y * w + x] == needle) {
        free(g);
        return y * w + x;
      }
    }
  }
  free(g);
  return -1;
}
