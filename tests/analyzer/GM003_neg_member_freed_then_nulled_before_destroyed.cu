// expected-no-diagnostics
// The twin of GM003_member_freed_then_destroyed.cu: the member is set to null after it is freed
// by hand, so the destructor's cudaFree(nullptr) does nothing.
#include <cuda_runtime.h>

struct Grid {
  float* cells;
  Grid(int n) { cudaMalloc(&cells, n * sizeof(float)); }
  ~Grid() { cudaFree(cells); }
};

int solve(int n) {
  Grid g(n);
  if (n < 16) {
    cudaFree(g.cells);
    g.cells = nullptr;
    return -1;
  }
  return 0;
}
