// The managed pointer reaches the launch through a local alias, after the host cleared it.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i]; // expected-note {{'add' indexes it by thread here}}
}

void vector_add(const float* d_a, const float* d_b, int n) {
  float* result = nullptr;
  cudaMallocManaged(&result, n * sizeof(float)); // expected-warning {{'result' (managed memory from cudaMallocManaged) reaches kernel 'add', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i) result[i] = 0.f;
  float* out = result;
  add<<<(n + 127) / 128, 128>>>(d_a, d_b, out, n); // expected-note {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < n; ++i) s += result[i];
  printf("%f\n", s);
  cudaFree(result);
}
