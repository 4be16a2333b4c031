// expected-no-diagnostics
// Setup of a two-level table (one buffer per device and per slot) that frees
// the slots it already filled when a later allocation fails, then gives up.
// Those frees run once, on the way out, not on every iteration: each slot is
// still allocated once and kept, so this is setup, not churn.
#include <cuda_runtime.h>

enum { NDEV = 4, NSLOT = 8 };

cudaError_t fill_table(float* table[NDEV][NSLOT], int ndev, size_t bytes) {
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    for (int s = 0; s < NSLOT; ++s) {
      cudaError_t err = cudaMalloc(&table[d][s], bytes);
      if (err != cudaSuccess) {
        for (int k = 0; k < s; ++k)
          cudaFree(table[d][k]);
        return err;
      }
    }
  }
  return cudaSuccess;
}

// A chunked reservation that backs off a few chunks when one fails and stops
// there: the frees are followed by a break out of the filling loop.
int reserve_chunks(float** chunks, int max_chunks, size_t bytes) {
  int got;
  for (got = 0; got < max_chunks; ++got) {
    if (cudaMalloc(&chunks[got], bytes) != cudaSuccess) {
      int back = got / 10;
      for (int k = 0; k < back && got > 0; ++k) {
        --got;
        cudaFree(chunks[got]);
        chunks[got] = nullptr;
      }
      break;
    }
  }
  return got;
}
