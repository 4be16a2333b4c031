// A buffer handed to mutually recursive helpers that only read it: the helpers are followed to
// a fixed point, so the walk borrows it and the caller still owns it. No one frees it.
#include <cuda_runtime.h>

void walk_b(float* p, int depth);
void walk_a(float* p, int depth) {
  if (depth > 0)
    walk_b(p, depth - 1);
}
void walk_b(float* p, int depth) {
  if (depth > 0)
    walk_a(p, depth - 1);
}

void leak_after_walk() {
  float* d;
  cudaMalloc(&d, 64); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path through 'leak_after_walk'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  walk_a(d, 3);
} // expected-note {{'leak_after_walk' ends here without freeing 'd'}}

// A recursion that frees its parameter at the bottom frees it: no one else does here.
void release_at_depth(float* p, int depth) {
  if (depth == 0) {
    cudaFree(p);
    return;
  }
  release_at_depth(p, depth - 1);
}

void use_tree(float* p, int depth) {
  if (depth > 0)
    use_tree(p, depth - 1);
}

void leak_after_self_walk() {
  float* d;
  cudaMalloc(&d, 64); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path through 'leak_after_self_walk'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  use_tree(d, 2);
} // expected-note {{'leak_after_self_walk' ends here without freeing 'd'}}
