// expected-no-diagnostics
// CSR sparse matrix-vector product: the managed vector x is read through the
// column indices (x[col[j]]), a data-dependent gather that prefetching the
// whole vector is not obviously right for. The CSR arrays and y are device
// memory.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void spmv(const int* row_ptr, const int* col, const float* val, const float* x,
                     float* y, int nrows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows) {
    float acc = 0.f;
    for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j)
      acc += val[j] * x[col[j]];
    y[row] = acc;
  }
}

void multiply(const int* d_row_ptr, const int* d_col, const float* d_val, int nrows,
              int ncols, float* d_y) {
  float* x = nullptr;
  cudaMallocManaged(&x, ncols * sizeof(float));
  for (int c = 0; c < ncols; ++c) x[c] = 1.f / (1 + c);
  spmv<<<(nrows + 127) / 128, 128>>>(d_row_ptr, d_col, d_val, x, d_y, nrows);
  cudaDeviceSynchronize();
  cudaFree(x);
}
