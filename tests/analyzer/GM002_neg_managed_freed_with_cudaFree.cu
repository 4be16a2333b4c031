// expected-no-diagnostics
// cudaFree is the right release for cudaMallocManaged memory.
#include <cuda_runtime.h>

__global__ void bump(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

int managed_bump(int n) {
  int* v = nullptr;
  if (cudaMallocManaged(&v, n * sizeof(int), cudaMemAttachGlobal) != cudaSuccess)
    return -1;
  for (int i = 0; i < n; ++i) v[i] = i;
  bump<<<(n + 255) / 256, 256>>>(v, n);
  cudaDeviceSynchronize();
  int last = v[n - 1];
  cudaFree(v);
  return last;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
