// nvcc accepts an out-of-line template member that repeats the default argument its
// declaration gives; clang refuses the redefinition. gmemlint drops the repeated `= 0` in its
// copy of the text (the declaration's default stands) and analyses the member in full.
#include <cuda_runtime.h>

template <typename T> struct Buffer {
  T *data = nullptr;
  int reserve(int n, int pad = 0);
};

template <typename T> int Buffer<T>::reserve(int n, int pad = 0) {
  T *fresh = nullptr;
  if (cudaMalloc(&fresh, (n + pad) * sizeof(T)) != cudaSuccess) // expected-warning {{'fresh' (device memory from cudaMalloc) is not freed on every path: a return leaves 'reserve' without releasing it; call cudaFree before returning}}
    return -1;
  if (n > 1 << 20)
    return -2; // expected-note {{this return leaves without freeing 'fresh'}}
  data = fresh;
  return 0;
}

int use() {
  Buffer<float> b;
  return b.reserve(16);
}
