// Growing concatenation written with CUDA_CHECK; the finding sits on the
// macro invocation line of the grown buffer's allocation.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

int poll_hits(int* d_hits, int max); // device-side search; returns hits found

void gather_hits(int** out, size_t* out_n) {
  int* all = nullptr;
  size_t n = 0;
  int* d_hits = nullptr;
  CUDA_CHECK(cudaMalloc(&d_hits, 1024 * sizeof(int)));
  int got;
  while ((got = poll_hits(d_hits, 1024)) > 0) {
    int* bigger = nullptr;
    CUDA_CHECK(cudaMalloc(&bigger, (n + got) * sizeof(int))); // expected-warning {{this buffer is regrown on every iteration: cudaMalloc allocates a larger block and the old contents are copied into it, so n iterations copy O(n^2) bytes and fragment memory; compute the final size and allocate once, or keep a capacity and grow it geometrically (double it) only when it runs out [GM020 growing-concatenation]}}
    CUDA_CHECK(cudaMemcpy(bigger, all, n * sizeof(int), cudaMemcpyDeviceToDevice)); // expected-note {{the old contents are copied here}}
    CUDA_CHECK(cudaMemcpy(bigger + n, d_hits, got * sizeof(int), cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaFree(all)); // expected-note {{and the old buffer is freed here}}
    all = bigger;
    n += got;
  }
  CUDA_CHECK(cudaFree(d_hits));
  *out = all;
  *out_n = n;
}
