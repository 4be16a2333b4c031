// Injected-defect test program: GPU allocations each freed on every path, in the shapes the
// mutants of bench/inject/inject.py start from (tests/cli/inject.sh).
#include <cuda_runtime.h>
#include "pool.h"

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t check_status = (call);                                                     \
    if (check_status != cudaSuccess) return 1;                                             \
  } while (0)

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// a device buffer and a pinned staging buffer, freed in the function that allocates them
int run_once(int n) {
  float *d_x;
  float *h_x;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMallocHost(&h_x, n * sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d_x, n);
  cudaMemcpy(h_x, d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFreeHost(h_x);
  cudaFree(d_x);
  return 0;
}

// managed memory moved to the GPU before a kernel reads all of it
int run_managed(int n, cudaStream_t stream) {
  float *m;
  if (cudaMallocManaged(&m, n * sizeof(float)) != cudaSuccess) return 1;
  for (int i = 0; i < n; ++i) m[i] = 1.0f;
  cudaMemLocation on_gpu = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(m, n * sizeof(float), on_gpu, 0, stream);
  scale<<<(n + 255) / 256, 256, 0, stream>>>(m, n);
  cudaStreamSynchronize(stream);
  cudaFree(m);
  return 0;
}

// a scratch buffer, and a declaration between the pair that is used after it: a loop around
// the pair would hide it (the churn mutant does not parse)
int run_scratch(int n) {
  float *d_s;
  cudaMalloc(&d_s, n * sizeof(float));
  int blocks = (n + 255) / 256;
  scale<<<blocks, 256>>>(d_s, n);
  cudaFree(d_s);
  return blocks > 0 ? 0 : 1;
}

// already reported: this leak on an error path is no site to mutate
int run_reported(int n) {
  float *d_r;
  CHECK(cudaMalloc(&d_r, n * sizeof(float)));
  if (cudaMemset(d_r, 0, n * sizeof(float)) != cudaSuccess) return 1;
  cudaFree(d_r);
  return 0;
}
