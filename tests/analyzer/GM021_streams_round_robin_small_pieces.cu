// Copies spread over a ring of streams, but each one a single element or a row whose size the
// data's shape fixes: a different stream per iteration overlaps nothing worth overlapping, and
// every call still pays its fixed cost. One copy of the range would do.
#include <cuda_runtime.h>

void upload_elements(float* d, const float* h, int n, cudaStream_t* streams, int nstreams) {
  for (int i = 0; i < n; ++i) // expected-note {{the loop}}
    cudaMemcpyAsync(d + i, h + i, sizeof(float), cudaMemcpyHostToDevice, streams[i % nstreams]); // expected-warning {{cudaMemcpyAsync moves 4 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpyAsync (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
}

void upload_rows(float* d, const float* h, int nrows, int ncols, cudaStream_t* streams,
                 int nstreams) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    cudaMemcpyAsync(d + (size_t)r * ncols, h + (size_t)r * ncols, ncols * sizeof(float), cudaMemcpyHostToDevice, streams[r % nstreams]); // expected-warning {{cudaMemcpyAsync copies the same number of bytes on every iteration to or from an address that advances with the loop; one cudaMemcpyAsync of the whole range (or cudaMemcpy2D for a strided layout) moves the same bytes without the per-call cost [GM021 small-transfer-in-loop]}}
}
