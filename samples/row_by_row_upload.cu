// row_by_row_upload.cu — uploading a matrix with one small cudaMemcpy per row.
//
// A CSV-style loader keeps each row of a feature matrix in its own host vector and uploads it
// with one cudaMemcpy per row. Each call carries a fixed cost of several microseconds, so 2 KiB
// rows reach a small fraction of the link's bandwidth; one copy of a packed host buffer does the
// same work far faster. Memory is handled correctly — gmemlint reports no GM001-GM003 finding —
// and GM021 (small-transfer-in-loop) is the rule for the pattern; at run time the site shows the
// count and mean size of its copies and the bandwidth achieved. The run prints both timings.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                   cudaGetErrorString(err_));                                              \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int kRows = 8192;
constexpr int kCols = 512;  // 2 KiB per row, 16 MiB in all

// Standardises each column in place (mean 0) so the upload feeds a real computation.
__global__ void center_columns(float *m, int rows, int cols, float *col_means) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float sum = 0.0f;
  for (int r = 0; r < rows; ++r) sum += m[(size_t)r * cols + c];
  float mean = sum / (float)rows;
  for (int r = 0; r < rows; ++r) m[(size_t)r * cols + c] -= mean;
  col_means[c] = mean;
}

int main() {
  std::vector<std::vector<float>> rows(kRows, std::vector<float>(kCols));
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c) rows[r][c] = (float)((r * 31 + c * 7) % 113) * 0.5f;

  const size_t row_bytes = kCols * sizeof(float);
  const size_t matrix_bytes = row_bytes * kRows;
  float *d_features, *d_means;
  CUDA_CHECK(cudaMalloc(&d_features, matrix_bytes));
  CUDA_CHECK(cudaMalloc(&d_means, kCols * sizeof(float)));

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));

  // The pathology: one transfer per row.
  CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < kRows; ++r)
    CUDA_CHECK(cudaMemcpy(d_features + (size_t)r * kCols, rows[r].data(), row_bytes,
                          cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms_rows = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms_rows, start, stop));

  // For comparison: pack on the host, one transfer.
  std::vector<float> packed((size_t)kRows * kCols);
  for (int r = 0; r < kRows; ++r)
    std::memcpy(packed.data() + (size_t)r * kCols, rows[r].data(), row_bytes);
  CUDA_CHECK(cudaEventRecord(start));
  CUDA_CHECK(cudaMemcpy(d_features, packed.data(), matrix_bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms_packed = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms_packed, start, stop));

  center_columns<<<(kCols + 127) / 128, 128>>>(d_features, kRows, kCols, d_means);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> means(kCols);
  CUDA_CHECK(cudaMemcpy(means.data(), d_means, kCols * sizeof(float), cudaMemcpyDeviceToHost));

  const double gb = (double)matrix_bytes / 1e9;
  std::printf("row_by_row_upload: %d copies of %zu B in %.2f ms (%.2f GB/s); one copy %.2f ms "
              "(%.2f GB/s); mean[0]=%.2f\n",
              kRows, row_bytes, ms_rows, gb / (ms_rows / 1e3), ms_packed,
              gb / (ms_packed / 1e3), means[0]);

  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaFree(d_means));
  CUDA_CHECK(cudaFree(d_features));
  return 0;
}
