// cudaLaunchKernel with an argument array holding the managed pointer.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void clamp01(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = fminf(fmaxf(v[i], 0.f), 1.f); // expected-note {{'clamp01' indexes it by thread here}}
}

int main() {
  int n = 1 << 20;
  float* p = nullptr;
  cudaMallocManaged(&p, n * sizeof(float)); // expected-warning {{'p' (managed memory from cudaMallocManaged) reaches kernel 'clamp01', which reads it densely, with no cudaMemPrefetchAsync or cudaMemAdvise before the launch: the GPU faults its pages over on demand (on an H200 a dense kernel over 1 GiB ran in 271 ms this way and in 0.75 ms after a prefetch). Prefetch it to the device before the launch, or use cudaMalloc and explicit copies [GM030 managed-dense-access]}}
  for (int i = 0; i < n; ++i)
    p[i] = (float)(i % 3) - 1.f;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  void* args[] = {&p, &n};
  cudaLaunchKernel((void*)clamp01, dim3((n + 255) / 256), dim3(256), args, 0, stream); // expected-note {{launched here without a prefetch}}
  cudaStreamSynchronize(stream);
  printf("%f\n", p[1]);
  cudaStreamDestroy(stream);
  cudaFree(p);
  return 0;
}
