// growing_concat.cu — collecting per-chunk results by regrowing one device buffer.
//
// A feature extractor produces one chunk of embeddings at a time and appends it to a growing
// device array the way `torch.cat([out, chunk])` does in a loop: allocate a larger buffer, copy
// the old contents into it, free the old one, append the chunk. Memory is handled correctly —
// every buffer is freed, so gmemlint reports no GM001-GM003 finding — but the bytes copied grow
// quadratically with the number of chunks. GM020 (growing-concatenation) is the rule for it; at
// run time the site shows successive sizes growing and the copied bytes adding up.
#include <cstdio>
#include <cstdlib>
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

constexpr int kChunks = 256;
constexpr int kRowsPerChunk = 512;
constexpr int kDim = 768;  // one chunk = 512 x 768 floats = 1.5 MiB; final array 384 MiB

// Produces one chunk of embeddings: a cheap deterministic function of (chunk, row, dim).
__global__ void embed_chunk(float *out, int chunk, int rows, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * dim) return;
  int row = i / dim, d = i % dim;
  out[i] = sinf(0.001f * (float)(chunk * rows + row) + 0.01f * (float)d);
}

__global__ void sum_column(const float *emb, int rows, int dim, int col, float *out) {
  float s = 0.0f;
  for (int r = threadIdx.x; r < rows; r += blockDim.x) s += emb[(size_t)r * dim + col];
  atomicAdd(out, s);
}

int main() {
  const size_t chunk_elems = (size_t)kRowsPerChunk * kDim;
  const size_t chunk_bytes = chunk_elems * sizeof(float);

  float *d_chunk;
  CUDA_CHECK(cudaMalloc(&d_chunk, chunk_bytes));

  float *d_all = nullptr;  // the concatenated embeddings so far
  size_t rows_so_far = 0;
  size_t bytes_copied = 0;
  const int threads = 256;
  const int blocks = (int)((chunk_elems + threads - 1) / threads);

  for (int c = 0; c < kChunks; ++c) {
    embed_chunk<<<blocks, threads>>>(d_chunk, c, kRowsPerChunk, kDim);
    CUDA_CHECK(cudaGetLastError());

    // out = cat([out, chunk]): allocate larger, copy old, free old, append.
    size_t old_bytes = rows_so_far * kDim * sizeof(float);
    float *d_grown;
    CUDA_CHECK(cudaMalloc(&d_grown, old_bytes + chunk_bytes));
    if (d_all != nullptr) {
      CUDA_CHECK(cudaMemcpy(d_grown, d_all, old_bytes, cudaMemcpyDeviceToDevice));
      CUDA_CHECK(cudaFree(d_all));
    }
    CUDA_CHECK(cudaMemcpy(d_grown + rows_so_far * kDim, d_chunk, chunk_bytes,
                          cudaMemcpyDeviceToDevice));
    bytes_copied += old_bytes + chunk_bytes;
    d_all = d_grown;
    rows_so_far += kRowsPerChunk;
  }

  float *d_sum;
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(float)));
  sum_column<<<1, 256>>>(d_all, (int)rows_so_far, kDim, 0, d_sum);
  CUDA_CHECK(cudaGetLastError());
  float h_sum = 0.0f;
  CUDA_CHECK(cudaMemcpy(&h_sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));

  const size_t final_bytes = rows_so_far * kDim * sizeof(float);
  std::printf("growing_concat: %zu rows, final %.0f MiB, copied %.1f GiB (%.0fx the final size), "
              "column-0 sum %.3f\n",
              rows_so_far, (double)final_bytes / (1 << 20), (double)bytes_copied / (1 << 30),
              (double)bytes_copied / (double)final_bytes, h_sum);

  CUDA_CHECK(cudaFree(d_sum));
  CUDA_CHECK(cudaFree(d_all));
  CUDA_CHECK(cudaFree(d_chunk));
  return 0;
}
