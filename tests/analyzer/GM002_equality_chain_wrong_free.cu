// The same chain, with the pinned case freed by cudaFree: reported once, at that free.
#include <cuda_runtime.h>

int upload(int type, const float* host, size_t n) {
  float* p = nullptr;
  if (type == 0)
    cudaMalloc(&p, n * sizeof(float));
  else if (type == 1)
    cudaMallocManaged(&p, n * sizeof(float)); // expected-note {{allocated here with cudaMallocManaged}}
  else if (type == 2)
    cudaMallocHost(&p, n * sizeof(float)); // expected-note {{allocated here with cudaMallocHost}}
  else
    return -1;
  cudaMemcpy(p, host, n * sizeof(float), cudaMemcpyDefault);
  if (type == 1)
    cudaFreeHost(p); // expected-warning {{managed memory}}
  else if (type == 0 || type == 2)
    cudaFree(p); // expected-warning {{pinned host memory}}
  return 0;
}
