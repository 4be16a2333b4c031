// A recursion that frees its parameter at the bottom frees it; freeing it again in the caller
// is a double free.
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

void free_twice() {
  float* d;
  cudaMalloc(&d, 64); // expected-note {{allocated here with cudaMalloc}}
  release_tree(d, 3); // expected-note {{first freed here}}
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: release_tree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}
