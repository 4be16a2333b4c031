// The prefetch comes after the launch (back to the host): too late for the
// kernel, which takes the faults.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void decay(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 0.99f; // expected-note {{'decay' indexes it by thread here}}
}

void run(int n) {
  float* v = nullptr;
  cudaMallocManaged(&v, n * sizeof(float)); // expected-warning {{'v' (managed memory from cudaMallocManaged) reaches kernel 'decay', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i) v[i] = 1.f;
  decay<<<(n + 255) / 256, 256>>>(v, n); // expected-note {{launched here without a prefetch}}
  cudaMemLocation host = {};
  host.type = cudaMemLocationTypeHost;
  cudaMemPrefetchAsync(v, n * sizeof(float), host, 0, 0);
  cudaDeviceSynchronize();
  printf("%f\n", v[0]);
  cudaFree(v);
}
