// expected-no-diagnostics
// cudaMallocFromPoolAsync from an explicit pool, per iteration.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void add_one(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

void churn(int iters, int n, cudaStream_t s) {
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPoolCreate(&pool, &props);
  for (int it = 0; it < iters; ++it) {
    int* v = nullptr;
    cudaMallocFromPoolAsync((void**)&v, n * sizeof(int), pool, s);
    cudaMemsetAsync(v, 0, n * sizeof(int), s);
    add_one<<<(n + 255) / 256, 256, 0, s>>>(v, n);
    cudaFreeAsync(v, s);
  }
  cudaStreamSynchronize(s);
  cudaMemPoolDestroy(pool);
}
