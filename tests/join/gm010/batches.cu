// GM010 verdicts: each function allocates on every iteration of a loop; the telemetry beside
// this file says how often each allocation ran (see expected.txt).
#include <cuda_runtime.h>

__global__ void step(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2.0f;
}

void churn(int batches, int n) { // confirmed: 400 calls
  for (int b = 0; b < batches; ++b) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void once_in_practice(int batches, int n) { // dismissed: the loop ran twice
  for (int b = 0; b < batches; ++b) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void never_called(int batches, int n) { // not-exercised
  for (int b = 0; b < batches; ++b) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, n * sizeof(float));
    step<<<(n + 255) / 256, 256>>>(tmp, n);
    cudaFree(tmp);
  }
}

void pinned_staging(int batches, int n) { // not-exercised: its one allocation failed
  for (int b = 0; b < batches; ++b) {
    float *h = nullptr;
    if (cudaMallocHost(&h, n * sizeof(float)) != cudaSuccess)
      return;
    h[0] = 1.0f;
    cudaFreeHost(h);
  }
}
