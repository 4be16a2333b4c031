// nvcc accepts an explicit specialisation whose __host__ __device__ differ from its primary
// template's; clang finds no template to specialise. gmemlint reads the specialisation as an
// overload with the same body (host calls take it as they would the specialisation) and
// analyses it in full: its leak is found; the primary's clean body stays clean.
#include <cuda_runtime.h>

template <typename T> __host__ __device__ T scaled(T x) { return x + x; }

template <> float scaled<float>(float x) {
  float *d = nullptr;
  cudaMalloc(&d, sizeof(float)); // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'scaled' without releasing it; call cudaFree before returning}}
  if (x < 0)
    return 0; // expected-note {{this return leaves without freeing 'd'}}
  cudaFree(d);
  return 2 * x;
}

__global__ void twice(float *d) { d[0] = scaled(d[0]); }
