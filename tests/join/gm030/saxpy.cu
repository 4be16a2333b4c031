// GM030 and GM031 verdicts: managed memory reaches dense kernels without a prefetch, or ping-
// pongs between host and device in a loop. Two runs: one with CUPTI's unified-memory counters,
// one under a tool that held CUPTI (see expected.txt).
#include <cuda_runtime.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void faulting(int n) { // GM030 confirmed: page faults and on-demand migration
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] = y[i] = 1.0f;
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
}

void host_fill_skipped(int n, int from_host) { // GM030 dismissed: the host fill did not run
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  if (from_host) x[0] = y[0] = 1.0f; // on the device first in this run: nothing migrated
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaFree(x);
  cudaFree(y);
}

void under_sanitizer(int n) { // GM030 unverifiable: ran where CUPTI was taken
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = y[i] = 1.0f;
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaFree(x);
  cudaFree(y);
}

void never_called(int n) { // GM030 not-exercised
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = y[i] = 1.0f;
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaFree(x);
  cudaFree(y);
}
