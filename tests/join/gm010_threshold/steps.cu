// GM010's confirm threshold at its edge: a site that ran exactly 16 times (the threshold) is
// confirmed, one that ran 15 times is dismissed (see expected.txt).
#include <cuda_runtime.h>

__global__ void step(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

void at_threshold(int batches, int n) { // confirmed: 16 calls
  for (int b = 0; b < batches; ++b) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void one_short(int batches, int n) { // dismissed: 15 calls
  for (int b = 0; b < batches; ++b) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}
