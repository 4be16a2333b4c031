// expected-no-diagnostics
// The host touches the managed buffer in its own loops (fill, then check),
// and the kernels are launched from a different loop.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void twice(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

int main() {
  const int n = 1 << 12;
  int* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(int));
  for (int i = 0; i < n; ++i)
    v[i] = i;
  for (int r = 0; r < 4; ++r)
    twice<<<n / 256, 256>>>(v, n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (v[i] != i * 16) ++bad;
  printf("%d\n", bad);
  cudaFree(v);
  return 0;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
