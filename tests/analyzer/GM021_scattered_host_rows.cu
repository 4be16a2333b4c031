// Uploading a matrix whose rows live in separate host allocations: the device
// destination advances by one row per iteration, each source row is found
// through a table or a struct, and every copy moves the same, non-constant
// number of bytes (a variable, a struct field). Packing the rows into one host
// buffer and uploading it once removes the per-call cost of every row.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

struct SparseRow {
  float* values;
  int nnz;
};

struct Dataset {
  int ncols;
  float** rows;
};

void upload_rows(float* d_dense, const SparseRow* rows, int nrows, int ncols) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    cudaMemcpy(d_dense + r * ncols, rows[r].values, ncols * sizeof(float), // expected-warning {{pack the pieces into one host buffer}}
               cudaMemcpyHostToDevice);
}

void upload_dataset(float* d_x, const Dataset* ds, int nrows) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    cudaMemcpy(d_x + (size_t)r * ds->ncols, ds->rows[r], ds->ncols * sizeof(float), // expected-warning {{cudaMemcpy copies the same number of bytes on every iteration from host memory found through a table or struct into a destination that advances with the loop; pack the pieces into one host buffer (a host memcpy costs nanoseconds) and upload it with one cudaMemcpy, instead of paying the per-call cost for each piece [GM021 small-transfer-in-loop]}}
               cudaMemcpyHostToDevice);
}

void upload_vectors(float* d_x, const std::vector<std::vector<float>>& rows, int ncols) {
  const size_t row_bytes = ncols * sizeof(float);
  float* dst = d_x;
  for (const auto& row : rows) { // expected-note {{the loop}}
    cudaMemcpyAsync(dst, row.data(), row_bytes, cudaMemcpyHostToDevice, 0); // expected-warning {{cudaMemcpyAsync copies the same number of bytes on every iteration from host memory found through a table or struct into a destination that advances with the loop; pack the pieces into one host buffer (a host memcpy costs nanoseconds) and upload it with one cudaMemcpyAsync, instead of paying the per-call cost for each piece [GM021 small-transfer-in-loop]}}
    dst += ncols;
  }
  cudaStreamSynchronize(0);
}

void upload_driver(CUdeviceptr d_x, const float* const* h_rows, int nrows, size_t row_bytes) {
  for (int r = 0; r < nrows; ++r) // expected-note {{the loop}}
    cuMemcpyHtoD(d_x + r * row_bytes, h_rows[r], row_bytes); // expected-warning {{cuMemcpyHtoD copies the same number of bytes on every iteration from host memory found through a table or struct into a destination that advances with the loop; pack the pieces into one host buffer (a host memcpy costs nanoseconds) and upload it with one cuMemcpyHtoD, instead of paying the per-call cost for each piece [GM021 small-transfer-in-loop]}}
}
