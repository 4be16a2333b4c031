// `register` in C++17 code (older numerical kernels' host helpers) and a string literal glued to
// a macro ("%"FMT): GCC, nvcc's host compiler, warns; clang rejects both unless told otherwise,
// and gmemlint parses as the build compiles.
#include <cuda_runtime.h>
#include <stdio.h>
#define FMT "f"

float checksum(const float *host, int n) {
  register float sum = 0.0f;
  for (register int i = 0; i < n; i++)
    sum += host[i];
  float *dev = nullptr;
  if (cudaMalloc(&dev, n * sizeof(float)) != cudaSuccess) // expected-warning {{'dev' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'checksum' without releasing it; call cudaFree before returning}}
    return -1.0f;
  if (cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess)
    return -2.0f; // expected-note {{this return after a failed call leaves without freeing 'dev'}}
  cudaFree(dev);
  printf("sum %"FMT"\n", sum);
  return sum;
}
