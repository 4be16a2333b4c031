// A pointer handed to a host callback as its user data belongs to the callback from then on
// (cudaLaunchHostFunc and cudaStreamAddCallback keep argument 2): not a leak here. Only that
// argument is kept; a buffer the callback is not given still leaks.
#include <cuda_runtime.h>

void CUDART_CB release_later(void *p);
void CUDART_CB on_done(cudaStream_t s, cudaError_t status, void *p);

int enqueue_release(cudaStream_t stream, size_t n) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  cudaLaunchHostFunc(stream, release_later, d);
  return 0;
}

int enqueue_callback(cudaStream_t stream, size_t n) {
  float *pinned = nullptr;
  if (cudaMallocHost(&pinned, n) != cudaSuccess)
    return -1;
  cudaStreamAddCallback(stream, on_done, pinned, 0);
  return 0;
}

int callback_gets_other(cudaStream_t stream, size_t n, void *ctx) {
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path}}
    return -1;
  cudaLaunchHostFunc(stream, release_later, ctx);
  return 0; // expected-note {{this return leaves without freeing 'd'}}
}
