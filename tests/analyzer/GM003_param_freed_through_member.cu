// A helper that stores its parameter into a member of the object it is given and frees it
// through that member frees the caller's pointer all the same: the caller's own free after it
// is a double free.
#include <cuda_runtime.h>

struct Holder {
  float *p;
};

void adopt_and_release(Holder *h, float *q) {
  h->p = q;
  cudaFree(h->p);
}

int main() {
  Holder h;
  float *d;
  cudaMalloc(&d, 64); // expected-note {{allocated here with cudaMalloc}}
  adopt_and_release(&h, d); // expected-note {{first freed here}}
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: adopt_and_release already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return 0;
}
