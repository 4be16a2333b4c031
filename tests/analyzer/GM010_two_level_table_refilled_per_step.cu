// The positive twin of GM010_neg_two_level_table_error_cleanup: the same
// two-level table with the same failure cleanup, but filled and freed again on
// every step of a time loop. The frees at the end of the step run on every
// iteration, so the step loop churns; the cleanup's early return does not hide
// that.
#include <cuda_runtime.h>

enum { NDEV = 4, NSLOT = 8 };

__global__ void touch(float* p) { p[threadIdx.x] = 1.f; }

cudaError_t run_steps(float* table[NDEV][NSLOT], int ndev, int steps, size_t bytes) {
  for (int step = 0; step < steps; ++step) { // expected-note {{the loop}}
    for (int d = 0; d < ndev; ++d) {
      cudaSetDevice(d);
      for (int s = 0; s < NSLOT; ++s) {
        cudaError_t err = cudaMalloc(&table[d][s], bytes); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
        if (err != cudaSuccess) {
          for (int k = 0; k < s; ++k)
            cudaFree(table[d][k]);
          return err;
        }
        touch<<<1, 32>>>(table[d][s]);
      }
    }
    for (int d = 0; d < ndev; ++d)
      for (int s = 0; s < NSLOT; ++s)
        cudaFree(table[d][s]);
  }
  return cudaSuccess;
}
