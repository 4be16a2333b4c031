// Uploading a matrix column by column into a column-major device layout:
// one element per copy with a strided destination (cudaMemcpy2D does this in
// one call).
#include <cuda_runtime.h>
#include <stdio.h>

void upload_transposed(double* d_colmajor, const double* h_rowmajor, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) { // expected-note {{the loop}}
      cudaMemcpyAsync(d_colmajor + (size_t)c * rows + r, h_rowmajor + (size_t)r * cols + c, // expected-warning {{GM021}}
                      sizeof(double), cudaMemcpyHostToDevice, 0);
    }
  }
  cudaStreamSynchronize(0);
}
