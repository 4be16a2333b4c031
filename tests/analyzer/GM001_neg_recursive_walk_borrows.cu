// expected-no-diagnostics
// Clean twin of GM001_recursive_walk_borrows.cu: the caller frees what the recursive walk only
// read, and a recursion that frees its parameter at the bottom is taken as freeing it (the
// caller does not free it again). A recursion that frees on one path only and keeps it on
// another hands it over, as any such helper does.
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

void free_after_walk() {
  float* d;
  cudaMalloc(&d, 64);
  walk_a(d, 3);
  cudaFree(d);
}

void release_at_depth(float* p, int depth) {
  if (depth == 0) {
    cudaFree(p);
    return;
  }
  release_at_depth(p, depth - 1);
}

void released_by_recursion() {
  float* d;
  cudaMalloc(&d, 64);
  release_at_depth(d, 3);
}

void release_odd(float* p, int depth);
void release_even(float* p, int depth) {
  if (depth == 0)
    return; // keeps it
  release_odd(p, depth - 1);
}
void release_odd(float* p, int depth) {
  if (depth == 0) {
    cudaFree(p);
    return;
  }
  release_even(p, depth - 1);
}

void handed_to_mixed_recursion() {
  float* d;
  cudaMalloc(&d, 64);
  release_even(d, 4);
}
