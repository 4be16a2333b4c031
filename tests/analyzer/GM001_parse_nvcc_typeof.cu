// `typeof` (a GNU keyword) under -std=c++17: nvcc's front end accepts it, clang only with GNU
// keywords on; gmemlint makes it clang's `__typeof__` in the second parse of a CUDA file whose
// errors name it.
#include <cuda_runtime.h>

#define SWAP(a, b)                                                                               \
  do {                                                                                           \
    typeof(a) tmp_ = (a);                                                                        \
    (a) = (b);                                                                                   \
    (b) = tmp_;                                                                                  \
  } while (0)

int ping_pong(int n, int steps) {
  float *front = nullptr, *back = nullptr;
  if (cudaMalloc(&front, n * sizeof(float)) != cudaSuccess) // expected-warning {{'front' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'ping_pong' without releasing it; call cudaFree before returning}}
    return -1;
  if (cudaMalloc(&back, n * sizeof(float)) != cudaSuccess)
    return -1; // expected-note {{this return after a failed call leaves without freeing 'front'}}
  for (int s = 0; s < steps; s++)
    SWAP(front, back);
  typeof(n) done = steps;
  cudaFree(front);
  cudaFree(back);
  return done;
}
