// Uploading a matrix column by column into a column-major device layout:
// one element per copy with a strided destination (cudaMemcpy2D does this in
// one call).
#include <cuda_runtime.h>
#include <stdio.h>

void upload_transposed(double* d_colmajor, const double* h_rowmajor, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) { // expected-note {{the loop}}
      cudaMemcpyAsync(d_colmajor + (size_t)c * rows + r, h_rowmajor + (size_t)r * cols + c, // expected-warning {{cudaMemcpyAsync moves 8 bytes per iteration to or from an address that advances with the loop; the fixed cost of each call dominates such small copies. Copy the whole range with one cudaMemcpyAsync (staging the pieces in one buffer if they are scattered), or a strided block with cudaMemcpy2D [GM021 small-transfer-in-loop]}}
                      sizeof(double), cudaMemcpyHostToDevice, 0);
    }
  }
  cudaStreamSynchronize(0);
}
