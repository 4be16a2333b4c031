// expected-no-diagnostics
// Loops that run once per mode: the body flips a flag on every path and the condition tests
// that flag, so the condition alternates and the loop runs at most twice. Two allocations,
// not one per step. And a workspace doubled on each failed try: a few dozen tries at most
// before memory runs out.
#include <cuda_runtime.h>

__global__ void fill(float *p, int n, bool transposed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = transposed ? 1.0f : 0.0f;
}

void both_layouts(int n) {
  bool transposed = false;
  do {
    float *p = nullptr;
    cudaMalloc(&p, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(p, n, transposed);
    cudaFree(p);
    transposed = !transposed;
  } while (transposed);
}

bool fits(const float *ws, size_t bytes);

size_t grow_until_it_fits(size_t bytes) {
  float *ws = nullptr;
  cudaMalloc(&ws, bytes);
  while (!fits(ws, bytes)) {
    cudaFree(ws);
    bytes *= 2;
    cudaMalloc(&ws, bytes);
  }
  cudaFree(ws);
  return bytes;
}
