// A member that the class's destructor frees, freed by hand first: the object's destructor frees
// it again where the object's scope ends (a return, the end of the block).
#include <cuda_runtime.h>

struct Grid {
  float* cells;
  Grid(int n) { cudaMalloc(&cells, n * sizeof(float)); }
  ~Grid() { cudaFree(cells); }
};

int solve(int n) {
  Grid g(n); // expected-note {{allocated here with Grid}}
  if (n < 16) {
    cudaFree(g.cells); // expected-note {{first freed here}}
    return -1; // expected-warning {{'g.cells' (device memory from Grid) is freed twice: cudaFree already released it, and 'g' is destroyed here, where ~Grid frees it again; set the member to null after freeing it, or leave the freeing to ~Grid [GM003 double-free]}}
  }
  return 0;
}
