// expected-no-diagnostics
// Clean twin of GM001_const_param_unknown_callee.cu: a function the program has no body for
// may keep what it gets through a pointer to non-const data, through `float *const *` (it can
// free the block it reaches), or as a method's argument (its object may store it); a `const T *`
// reader does not, and the caller frees after it.
#include <cuda_runtime.h>

extern void external_read(const float* p, int n);
extern void external_take(float* p, int n);
extern void external_view(float* const* pp);

struct Registry {
  void add(const float* p);
};

void freed_after_read() {
  float* d;
  cudaMalloc(&d, 64);
  external_read(d, 16);
  cudaFree(d);
}

void taken() {
  float* d;
  cudaMalloc(&d, 64);
  external_take(d, 16);
}

void viewed_through_pointer() {
  float* d;
  cudaMalloc(&d, 64);
  external_view(&d);
}

void registered(Registry& r) {
  float* d;
  cudaMalloc(&d, 64);
  r.add(d);
}
