#include <cuda_runtime.h>

#include "saxpy.cuh"

int main() {
  const int n = 1 << 24;
  float *x, *y, *u, *v;
  cudaMallocManaged(&x, n * sizeof(float)); // expected-warning {{'x' (managed memory from cudaMallocManaged) reaches kernel 'saxpy', which reads it densely}} expected-note@saxpy.cu:13 {{launched here without a prefetch}} expected-note@saxpy.cu:9 {{'saxpy' indexes it by thread here}}
  cudaMallocManaged(&y, n * sizeof(float)); // expected-warning {{'y' (managed memory from cudaMallocManaged) reaches kernel 'saxpy', which reads it densely}} expected-note@saxpy.cu:13 {{launched here without a prefetch}} expected-note@saxpy.cu:9 {{'saxpy' indexes it by thread here}}
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = 2.0f;
  }
  run_saxpy(x, y, 2.0f, n); // expected-note 2 {{passed to 'run_saxpy', which launches the kernel}}

  // prefetched before the launcher runs: the pages are on the device already
  cudaMallocManaged(&u, n * sizeof(float));
  cudaMallocManaged(&v, n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    u[i] = 1.0f;
    v[i] = 2.0f;
  }
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(u, n * sizeof(float), gpu, 0, 0);
  cudaMemPrefetchAsync(v, n * sizeof(float), gpu, 0, 0);
  run_saxpy(u, v, 2.0f, n);

  cudaFree(x);
  cudaFree(y);
  cudaFree(u);
  cudaFree(v);
  return 0;
}
