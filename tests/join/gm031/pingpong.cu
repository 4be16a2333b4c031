// GM031 verdicts (and GM030 on the same sites): managed memory touched by the host and by a
// kernel in the same loop; the telemetry says which way its pages moved (see expected.txt).
#include <cuda_runtime.h>

__global__ void relax(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    v[i] = 0.5f * (v[i - 1] + v[i + 1]);
}

float both_ways(int n, int iters) { // confirmed: pages migrated both ways
  float *v;
  cudaMallocManaged(&v, n * sizeof(float));
  float sum = 0;
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256>>>(v, n);
    cudaDeviceSynchronize();
    sum += v[n / 2];
  }
  cudaFree(v);
  return sum;
}

float one_way(int n, int iters) { // dismissed: pages moved to the device only
  float *v;
  cudaMallocManaged(&v, n * sizeof(float));
  float sum = 0;
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256>>>(v, n);
    cudaDeviceSynchronize();
    sum += v[n / 2];
  }
  cudaFree(v);
  return sum;
}

float no_counters(int n, int iters) { // unverifiable: CUPTI was held by another tool
  float *v;
  cudaMallocManaged(&v, n * sizeof(float));
  float sum = 0;
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256>>>(v, n);
    cudaDeviceSynchronize();
    sum += v[n / 2];
  }
  cudaFree(v);
  return sum;
}

float never_called(int n, int iters) { // not-exercised
  float *v;
  cudaMallocManaged(&v, n * sizeof(float));
  float sum = 0;
  for (int it = 0; it < iters; ++it) {
    relax<<<(n + 255) / 256, 256>>>(v, n);
    cudaDeviceSynchronize();
    sum += v[n / 2];
  }
  cudaFree(v);
  return sum;
}
