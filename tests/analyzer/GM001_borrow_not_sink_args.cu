// A sink keeps only its `pointer` argument and borrows the rest: a buffer handed to
// cudaLaunchHostFunc as the callback's user data is the callback's, but a second buffer the
// callback's context merely points at is not handed over by that call.
#include <cuda_runtime.h>

struct ctx {
  float *out;
};
void CUDART_CB finish(void *c);

int launch(cudaStream_t s, struct ctx *c, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path}}
    return -1;
  cudaMemsetAsync(d, 0, n, s);
  cudaLaunchHostFunc(s, finish, c);
  return 0;
}
// expected-note@-2 {{this return leaves without freeing 'd'}}
