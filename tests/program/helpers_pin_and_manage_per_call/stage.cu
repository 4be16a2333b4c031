#include <cuda_runtime.h>
#include <string.h>

#include "stage.cuh"

__global__ void score(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * 0.5f;
}

void stage_chunk(const char *src, size_t bytes) {
  char *pinned = nullptr;
  cudaMallocHost(&pinned, bytes); // expected-warning {{/pipeline.cu; on an H200 cudaMallocHost costs 0.8 ms for 256 bytes and 465 ms for 1 GiB, because it pins the pages. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}} expected-note@pipeline.cu:7 {{'stage_chunk' is called in a loop here, in 'run'}} expected-note@pipeline.cu:6 {{the loop}}
  memcpy(pinned, src, bytes);
  cudaFreeHost(pinned);
}

void score_chunk(int n) {
  float *scores = nullptr;
  cudaMallocManaged(&scores, n * sizeof(float)); // expected-warning {{/pipeline.cu; on an H200 cudaMallocManaged costs about 10 us, and each fresh buffer's pages fault and migrate again on first touch. Allocate once outside the loop and pass the buffer in, or use cudaMallocAsync from a memory pool}} expected-note@pipeline.cu:8 {{'score_chunk' is called in a loop here, in 'run'}} expected-note@pipeline.cu:6 {{the loop}}
  score<<<(n + 255) / 256, 256>>>(scores, n);
  cudaDeviceSynchronize();
  cudaFree(scores);
}
