#include <cuda_runtime.h>

#include "holder.h"

int main() {
  Holder h;
  float *d;
  cudaMalloc(&d, 64); // expected-note {{allocated here with cudaMalloc}}
  adopt_and_release(&h, d); // expected-note {{first freed here}}
  cudaFree(d); // expected-warning {{'d' (device memory from cudaMalloc) is freed twice: adopt_and_release already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
  return 0;
}
