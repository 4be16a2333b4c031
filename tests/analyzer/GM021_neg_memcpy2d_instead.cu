// expected-no-diagnostics
// Sub-matrix download written as one cudaMemcpy2D instead of a row loop.
// The loop afterwards is host-only work on the downloaded rows.
#include <cuda_runtime.h>
#include <stdio.h>

void download_block(float* h, const float* d, size_t d_pitch, int rows, int cols) {
  cudaMemcpy2D(h, cols * sizeof(float), d, d_pitch, cols * sizeof(float), rows,
               cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; ++r) {
    float* row = h + (size_t)r * cols;
    for (int c = 1; c < cols; ++c)
      row[c] += row[c - 1];
  }
}

void run(int rows, int cols, float* h) {
  float* d = nullptr;
  size_t pitch = 0;
  cudaMallocPitch((void**)&d, &pitch, cols * sizeof(float), rows);
  cudaMemset2D(d, pitch, 0, cols * sizeof(float), rows);
  download_block(h, d, pitch, rows, cols);
  cudaFree(d);
}
