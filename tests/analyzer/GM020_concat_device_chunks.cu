// The torch.cat pattern: every chunk is appended by allocating a buffer one
// chunk larger, copying the old contents over and freeing the old buffer.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void produce(float* out, int n, int seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)(seed + i);
}

float* collect(int nchunks, int chunk, int* total_out) {
  float* acc = nullptr;
  int total = 0;
  float* d_chunk = nullptr;
  cudaMalloc(&d_chunk, chunk * sizeof(float));
  for (int c = 0; c < nchunks; ++c) {
    produce<<<(chunk + 255) / 256, 256>>>(d_chunk, chunk, c);
    float* grown = nullptr;
    cudaMalloc(&grown, (total + chunk) * sizeof(float)); // expected-warning {{GM020}}
    cudaMemcpy(grown, acc, total * sizeof(float), cudaMemcpyDeviceToDevice); // expected-note {{copied}}
    cudaMemcpy(grown + total, d_chunk, chunk * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(acc); // expected-note {{freed}}
    acc = grown;
    total += chunk;
  }
  cudaFree(d_chunk);
  *total_out = total;
  return acc;
}
