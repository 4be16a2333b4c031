// Stream-ordered allocation that is not released when the launch fails.
#include <cuda_runtime.h>

__global__ void square(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

cudaError_t square_async(float* h, int n, cudaStream_t s) {
  size_t bytes = (size_t)n * sizeof(float);
  float* d = nullptr;
  cudaError_t err = cudaMallocAsync(&d, bytes, s); // expected-warning {{'d' (stream-ordered device memory from cudaMallocAsync) is not freed on an error path: a return after a failed call leaves 'square_async' without releasing it; call cudaFreeAsync before returning [GM001 unpaired-allocation]}}
  if (err != cudaSuccess)
    return err;
  cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s);
  square<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  err = cudaGetLastError();
  if (err != cudaSuccess)
    return err; // expected-note {{this return after a failed call leaves without freeing 'd'}}
  cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(d, s);
  return cudaStreamSynchronize(s);
}
