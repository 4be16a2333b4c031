// A helper hands a fresh buffer out through `T **out` and, on one branch, also keeps it in a
// table of its own: on that path the caller gets a view of it, not ownership, so a caller that
// never frees it leaks nothing it owned. The two helpers differ only in the order of their
// branches, and their callers must be judged alike. The third helper never keeps it: its
// caller owns what it gets, and leaks it.
#include <cuda_runtime.h>

static float *registry[16];

void make_kept_when(float **out, int slot, int keep) {
  float *p;
  cudaMalloc(&p, 64 * sizeof(float));
  *out = p;
  if (keep)
    registry[slot] = p;
}

void make_kept_unless(float **out, int slot, int skip) {
  float *p;
  cudaMalloc(&p, 64 * sizeof(float));
  *out = p;
  if (skip) {
  } else
    registry[slot] = p;
}

void make_owned(float **out) {
  float *p;
  cudaMalloc(&p, 64 * sizeof(float));
  *out = p;
}

void use_kept_when(int slot) {
  float *d;
  make_kept_when(&d, slot, slot & 1);
  cudaMemset(d, 0, 64 * sizeof(float));
}

void use_kept_unless(int slot) {
  float *d;
  make_kept_unless(&d, slot, slot & 1);
  cudaMemset(d, 0, 64 * sizeof(float));
}

void use_owned(void) {
  float *d;
  make_owned(&d); // expected-warning {{'d' (device memory from make_owned) is not freed on every path through 'use_owned'; call cudaFree when it is no longer needed [GM001 unpaired-allocation]}}
  cudaMemset(d, 0, 64 * sizeof(float));
} // expected-note {{'use_owned' ends here without freeing 'd'}}
