// A function template allocates its workspace; the loop calls it for every
// tile. The finding is anchored inside the template.
#include <cuda_runtime.h>
#include <stdio.h>

template <typename T>
__global__ void scale(T* v, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= a;
}

template <typename T>
void scale_tile(const T* h_tile, T* h_out, T a, int n) {
  T* d = nullptr;
  cudaMalloc(&d, n * sizeof(T)); // expected-warning {{cudaMalloc in 'scale_tile' runs on every iteration of a loop that calls 'scale_tile'; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool [GM010 allocation-in-loop]}}
  cudaMemcpy(d, h_tile, n * sizeof(T), cudaMemcpyHostToDevice);
  scale<T><<<(n + 127) / 128, 128>>>(d, a, n);
  cudaMemcpy(h_out, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d);
}

void scale_all(const double* h_in, double* h_out, int ntiles, int tile) {
  for (int t = 0; t < ntiles; ++t)
    scale_tile<double>(h_in + (size_t)t * tile, h_out + (size_t)t * tile, 0.5, tile); // expected-note {{'scale_tile' is called in a loop here}}
}
