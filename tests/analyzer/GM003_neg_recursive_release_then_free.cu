// expected-no-diagnostics
// Clean twin of GM003_recursive_release_then_free.cu: the recursion frees it, the caller does
// not free it again.
#include <cuda_runtime.h>

void release_tree(float* p, int depth);
void release_level(float* p, int depth) { release_tree(p, depth); }
void release_tree(float* p, int depth) {
  if (depth == 0) {
    cudaFree(p);
    return;
  }
  release_level(p, depth - 1);
}

void free_once() {
  float* d;
  cudaMalloc(&d, 64);
  release_tree(d, 3);
}
