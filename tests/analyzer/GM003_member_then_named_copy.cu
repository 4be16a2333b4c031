// A member freed, then freed again twice: through the member on a retry path (memory no variable
// holds: the member is reached through a local pointer, so the finding names the allocation) and
// through a local copy taken after the free. Same
// allocation, same first free, yet two findings: a double free is grouped by its variable, and
// an unnamed one is never taken for the same defect as a named one.
#include <cuda_runtime.h>

struct Staging {
  float* buf;
};

int retry_needed(int attempt);

void drain(Staging* staging, size_t n) {
  Staging* s = staging;
  cudaMalloc(&s->buf, n); // expected-note 2 {{allocated here with cudaMalloc}}
  cudaFree(s->buf); // expected-note 2 {{first freed here}}
  if (retry_needed(1))
    cudaFree(s->buf); // expected-warning {{device memory from cudaMalloc is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  float* last = s->buf;
  cudaFree(last); // expected-warning {{'last' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}
