// A member of the object the function was given, allocated twice on one path: the first block is
// lost (a case that falls through into the next one, two tests that both pass, a method).
#include <cuda_runtime.h>

struct Plan {
  float* fine_grid;
  int* bin_starts;
};

void plan_allocate(Plan* p, int method, size_t n) {
  switch (method) {
  case 2:
    cudaMalloc(&p->bin_starts, n * sizeof(int)); // expected-warning {{'p->bin_starts' (device memory from cudaMalloc) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+3 {{overwritten here while it still owns the memory}}
    // falls through
  case 3:
    cudaMalloc(&p->bin_starts, 2 * n * sizeof(int));
    break;
  }
  cudaMalloc(&p->fine_grid, n * sizeof(float));
}

void plan_grids(Plan* p, size_t n, int coarse, int sorted) {
  if (coarse)
    cudaMalloc(&p->fine_grid, n * sizeof(float)); // expected-warning {{'p->fine_grid' (device memory from cudaMalloc) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+2 {{overwritten here while it still owns the memory}}
  if (sorted)
    cudaMalloc(&p->fine_grid, 4 * n * sizeof(float));
}

class Workspace {
public:
  void grow(size_t n) {
    cudaMalloc(&scratch_, n); // expected-warning {{'scratch_' (device memory from cudaMalloc) leaks: its only pointer is overwritten before it is freed; call cudaFree first [GM001 unpaired-allocation]}} expected-note@+1 {{overwritten here while it still owns the memory}}
    cudaMalloc(&scratch_, 2 * n);
  }

private:
  float* scratch_;
};
