// Merging telemetry: two MPI ranks each ran the loop 10 times; only together do they reach
// GM010's threshold of 16 calls. Each rank leaked some workspaces (see expected.txt).
#include <cuda_runtime.h>

int solve(int iters, size_t n) {
  for (int it = 0; it < iters; ++it) {
    float *work = nullptr;
    if (cudaMalloc(&work, n) != cudaSuccess)
      return -1;
    if (it % 7 == 6)
      return 1;
    cudaFree(work);
  }
  return 0;
}
