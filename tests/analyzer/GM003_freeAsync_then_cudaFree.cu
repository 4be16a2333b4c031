// Released with cudaFreeAsync on the stream, then again with cudaFree.
#include <cuda_runtime.h>

__global__ void zero(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.f;
}

void zero_then_sync(int n, cudaStream_t s) {
  float* d = nullptr;
  if (cudaMallocAsync(&d, n * sizeof(float), s) != cudaSuccess) // expected-note {{allocated here with cudaMallocAsync}}
    return;
  zero<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  cudaFreeAsync(d, s); // expected-note {{first freed here}}
  cudaStreamSynchronize(s);
  cudaFree(d); // expected-warning {{'d' (stream-ordered device memory from cudaMallocAsync) is freed twice: cudaFreeAsync already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}}
}
