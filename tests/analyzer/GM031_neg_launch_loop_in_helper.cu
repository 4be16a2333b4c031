// expected-no-diagnostics
// The launch loop lives in a helper; main initialises the managed buffer
// before calling it and reads the result afterwards, outside any loop.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void relax(double* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) u[i] = 0.5 * (u[i - 1] + u[i + 1]);
}

static void relax_many(double* u, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    relax<<<(n + 127) / 128, 128>>>(u, n);
  cudaDeviceSynchronize();
}

int main() {
  const int n = 1 << 14;
  double* u = nullptr;
  cudaMallocManaged(&u, n * sizeof(double));
  u[0] = 1.0;
  for (int i = 1; i < n; ++i) u[i] = 0.0;
  relax_many(u, n, 500);
  printf("%f\n", u[n / 2]);
  cudaFree(u);
  return 0;
}
// expected-rules-unchecked GM030: the managed memory is launched on without a prefetch as the shape needs; GM030's own tests cover that
