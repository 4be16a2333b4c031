// nvcc accepts `__host__ __device__` on an out-of-line member definition whose declaration in
// the class has none; clang refuses it ("cannot overload __host__ function"). gmemlint parses the
// definition as host code (the attributes blanked in its copy of the text) and analyses it in
// full: the leak on the early return is found.
#include <cuda_runtime.h>

struct Grid {
  int n;
  int stage(int bytes) const;
};

__host__ __device__ int Grid::stage(int bytes) const {
  float *d = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess) // expected-warning {{'d' (device memory from cudaMalloc) is not freed on every path: a return leaves 'stage' without releasing it; call cudaFree before returning}}
    return -1;
  if (bytes > n)
    return -2; // expected-note {{this return leaves without freeing 'd'}}
  cudaFree(d);
  return 0;
}
