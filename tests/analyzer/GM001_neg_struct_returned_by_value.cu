// expected-no-diagnostics
// Buffers stored into a local struct that is returned by value.
#include <cuda_runtime.h>

struct Csr {
  int* d_rowptr;
  int* d_cols;
  float* d_vals;
  int nrows, nnz;
};

Csr csr_alloc(int nrows, int nnz) {
  Csr m = {nullptr, nullptr, nullptr, nrows, nnz};
  int* rowptr = nullptr;
  int* cols = nullptr;
  float* vals = nullptr;
  cudaMalloc(&rowptr, (nrows + 1) * sizeof(int));
  cudaMalloc(&cols, nnz * sizeof(int));
  cudaMalloc(&vals, nnz * sizeof(float));
  m.d_rowptr = rowptr;
  m.d_cols = cols;
  m.d_vals = vals;
  return m;
}

void csr_free(Csr* m) {
  cudaFree(m->d_rowptr);
  cudaFree(m->d_cols);
  cudaFree(m->d_vals);
}
