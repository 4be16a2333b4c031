// Managed buffer initialised on the host and then read densely by a kernel
// with no prefetch: every page faults over to the GPU on first touch.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i]; // expected-note 2 {{'saxpy' indexes it by thread here}}
}

int main() {
  const int n = 1 << 24;
  float* x = nullptr;
  float* y = nullptr;
  cudaMallocManaged(&x, n * sizeof(float)); // expected-warning {{'x' (managed memory from cudaMallocManaged) reaches kernel 'saxpy', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  cudaMallocManaged(&y, n * sizeof(float)); // expected-warning {{'y' (managed memory from cudaMallocManaged) reaches kernel 'saxpy', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i) {
    x[i] = 1.f;
    y[i] = 2.f;
  }
  saxpy<<<(n + 255) / 256, 256>>>(n, 3.f, x, y); // expected-note 2 {{launched here without a prefetch}}
  cudaDeviceSynchronize();
  printf("%f\n", y[0]);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
