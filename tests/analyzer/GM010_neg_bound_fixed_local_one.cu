// expected-no-diagnostics
// A benchmark's repeat loop whose bound is a local set once to 1 and never changed (`int
// numRuns = 1;`), around a test that allocates and frees its buffers: it runs once.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void step(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

float run_test(int n) {
  float *d = NULL;
  cudaMalloc(&d, n * sizeof(float));
  step<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 1.0f;
}

int main() {
  int numRuns = 1;
  const int first = 0;
  float total = 0.f;
  for (int run = first; run < numRuns; run++)
    total += run_test(1 << 20);
  printf("%f\n", total / numRuns);
  float *scratch = NULL;
  for (int run = 0; run < numRuns; ++run) {
    cudaMalloc(&scratch, 1024);
    cudaFree(scratch);
  }
  return 0;
}
