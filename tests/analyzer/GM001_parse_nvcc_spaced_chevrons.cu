// nvcc's front end reads a launch's chevrons with blanks between them (`k << < grid, block >> >`,
// `k< <<...>> >`); clang's lexer needs `<<<` and `>>>` as written. gmemlint parses such a file
// as nvcc does, and leaves what only looks like chevrons alone: a friend operator<< <> and
// closing template brackets.
#include <cuda_runtime.h>
#include <map>
#include <ostream>
#include <vector>

template <class T> struct Grid;
template <class T> std::ostream &operator<<(std::ostream &os, const Grid<T> &g);
template <class T> struct Grid {
  T *cells;
  friend std::ostream &operator<< <>(std::ostream &os, const Grid<T> &g);
};

std::map<int, std::vector<std::vector<int>> > levels;

__global__ void relax(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 0.5f;
}

int sweep(int n, int steps) {
  float *d_v = nullptr;
  cudaMalloc(&d_v, n * sizeof(float)); // expected-warning {{'d_v' (device memory from cudaMalloc) is not freed on an error path: a return after a failed call leaves 'sweep' without releasing it; call cudaFree before returning}}
  for (int s = 0; s < steps; s++) {
    relax << < (n + 255) / 256, 256 >> >(d_v, n);
    relax< <<1, 32> >>(d_v, n);
  }
  if (cudaGetLastError() != cudaSuccess) return -1; // expected-note {{this return after a failed call leaves without freeing 'd_v'}}
  cudaFree(d_v);
  return 0;
}
