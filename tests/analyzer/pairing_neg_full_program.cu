// expected-no-diagnostics
// A complete small program in the usual CUDA sample style.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(x)                                                   \
  do {                                                                  \
    cudaError_t e_ = (x);                                               \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

__global__ void matmul(const float* A, const float* B, float* C, int N) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < N && c < N) {
    float acc = 0.f;
    for (int k = 0; k < N; ++k) acc += A[r * N + k] * B[k * N + c];
    C[r * N + c] = acc;
  }
}

int main() {
  const int N = 256;
  size_t bytes = (size_t)N * N * sizeof(float);
  float* hA = (float*)malloc(bytes);
  float* hB = (float*)malloc(bytes);
  float* hC = (float*)malloc(bytes);
  if (!hA || !hB || !hC) {
    fprintf(stderr, "host alloc failed\n");
    exit(1);
  }
  for (int i = 0; i < N * N; ++i) { hA[i] = 1.f; hB[i] = 2.f; }
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, bytes));
  CUDA_CHECK(cudaMalloc(&dB, bytes));
  CUDA_CHECK(cudaMalloc(&dC, bytes));
  CUDA_CHECK(cudaMemcpy(dA, hA, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB, bytes, cudaMemcpyHostToDevice));
  dim3 block(16, 16), grid((N + 15) / 16, (N + 15) / 16);
  matmul<<<grid, block>>>(dA, dB, dC, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hC, dC, bytes, cudaMemcpyDeviceToHost));
  printf("C[0] = %f\n", hC[0]);
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  free(hA);
  free(hB);
  free(hC);
  return 0;
}
