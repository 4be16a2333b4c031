// expected-no-diagnostics
// The clean twin of GM003_param_freed_through_member: the helper stores its parameter into the
// member and leaves it there (the object adopts it), or frees only what the member held before;
// the caller frees its pointer once.
#include <cuda_runtime.h>

struct Holder {
  float *p;
};

void adopt(Holder *h, float *q) {
  h->p = q;
}

void replace(Holder *h, float *q) {
  cudaFree(h->p);
  h->p = q;
}

int main() {
  Holder h;
  float *d;
  cudaMalloc(&d, 64);
  adopt(&h, d);
  cudaFree(h.p);
  Holder other;
  cudaMalloc(&other.p, 64);
  float *e;
  cudaMalloc(&e, 64);
  replace(&other, e);
  cudaFree(e);
  return 0;
}
