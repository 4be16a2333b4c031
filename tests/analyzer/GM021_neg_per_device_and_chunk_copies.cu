// expected-no-diagnostics
// Copies through a table of buffers that batching would not help: one chunk
// per GPU in a multi-device loop (the destination is each device's own
// buffer, or the host gathers from each device), device-to-device
// concatenation of device chunks, host pieces of a per-iteration size, a
// tiled upload that a kernel consumes in the same iteration, and a copy whose
// direction is not known.
#include <cuda_runtime.h>

struct SparseRow {
  float* values;
  int nnz;
};

__global__ void scale(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2.f;
}

void scatter_to_devices(float* const* d, const float* h, int ndev, size_t chunk) {
  const size_t chunk_bytes = chunk * sizeof(float);
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpy(d[dev], h + dev * chunk, chunk_bytes, cudaMemcpyHostToDevice);
  }
}

void gather_from_devices(float* h, float* const* d, int ndev, size_t chunk) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpy(h + dev * chunk, d[dev], chunk * sizeof(float), cudaMemcpyDeviceToHost);
  }
}

void upload_per_device_from_table(float* d_all, float* const* h_parts, int ndev, size_t bytes) {
  for (int dev = 0; dev < ndev; ++dev) {
    cudaSetDevice(dev);
    cudaMemcpy((char*)d_all + dev * bytes, h_parts[dev], bytes, cudaMemcpyHostToDevice);
  }
}

void concat_device_chunks(float* d_all, float* const* d_chunks, int nchunks, size_t chunk_bytes) {
  for (int c = 0; c < nchunks; ++c)
    cudaMemcpy((char*)d_all + c * chunk_bytes, d_chunks[c], chunk_bytes,
               cudaMemcpyDeviceToDevice);
}

void upload_jagged(float* d_x, const SparseRow* rows, int nrows) {
  size_t off = 0;
  for (int r = 0; r < nrows; ++r) {
    cudaMemcpy(d_x + off, rows[r].values, rows[r].nnz * sizeof(float), cudaMemcpyHostToDevice);
    off += rows[r].nnz;
  }
}

void tiled(float* d_x, const SparseRow* rows, int nrows, int ncols) {
  for (int r = 0; r < nrows; ++r) {
    cudaMemcpy(d_x + r * ncols, rows[r].values, ncols * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(ncols + 255) / 256, 256>>>(d_x + r * ncols, ncols);
  }
}

void direction_unknown(float* d_x, const SparseRow* rows, int nrows, int ncols) {
  for (int r = 0; r < nrows; ++r)
    cudaMemcpy(d_x + r * ncols, rows[r].values, ncols * sizeof(float), cudaMemcpyDefault);
}
