// expected-no-diagnostics
// One unchanged flag picks malloc or cudaMallocManaged, and later free or cudaFree; an int
// `type` picks among three allocators and later the matching frees.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

int run(bool system_allocated, int n) {
  int* data;
  if (system_allocated)
    data = (int*)malloc(n * sizeof(int));
  else
    cudaMallocManaged(&data, n * sizeof(int));
  for (int i = 0; i < n; i++) data[i] = i;
  add_one<<<(n + 255) / 256, 256>>>(data, n);
  cudaDeviceSynchronize();
  printf("%d\n", data[0]);
  if (system_allocated)
    free(data);
  else
    cudaFree(data);
  return 0;
}

void churn(int type, size_t bytes) {
  void* p = NULL;
  if (type == 0)
    cudaMallocManaged(&p, bytes);
  else if (type == 1)
    cudaMalloc(&p, bytes);
  else if (type == 2)
    cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
  cudaMemset(p, 0, bytes);
  if (type == 2)
    cudaFreeHost(p);
  else
    cudaFree(p);
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
