// A row-major matrix uploaded one row per cudaMemcpy: the byte count is the
// same every iteration and both pointers advance by a row. One cudaMemcpy
// (or cudaMemcpy2D for a pitched destination) moves the same bytes.
#include <cuda_runtime.h>
#include <stdio.h>

void upload_matrix(float* d, const float* h, int rows, int cols) {
  for (int r = 0; r < rows; ++r) { // expected-note {{the loop}}
    cudaMemcpy(d + (size_t)r * cols, h + (size_t)r * cols, cols * sizeof(float), // expected-warning {{cudaMemcpy copies the same number of bytes on every iteration to or from an address that advances with the loop; one cudaMemcpy of the whole range (or cudaMemcpy2D for a strided layout) moves the same bytes without the per-call cost [GM021 small-transfer-in-loop]}}
               cudaMemcpyHostToDevice);
  }
}

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y;
  if (c < cols) out[c * rows + r] = in[r * cols + c];
}

void run(const float* h, float* h_t, int rows, int cols) {
  float* d_in = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_in, (size_t)rows * cols * sizeof(float));
  cudaMalloc(&d_out, (size_t)rows * cols * sizeof(float));
  upload_matrix(d_in, h, rows, cols);
  transpose<<<dim3((cols + 255) / 256, rows), 256>>>(d_in, d_out, rows, cols);
  cudaMemcpy(h_t, d_out, (size_t)rows * cols * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
