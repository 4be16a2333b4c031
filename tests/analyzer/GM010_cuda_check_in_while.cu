// A CUDA_CHECK-wrapped allocation inside a while loop that drains a work
// queue. The finding sits on the line where the macro is invoked.
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

struct Job {
  const float* host;
  int n;
};

__global__ void square(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

void drain(const Job* jobs, int njobs, float* h_result) {
  int next = 0;
  while (next < njobs) { // expected-note {{the loop}}
    const Job& j = jobs[next++];
    float* d = nullptr;
    CUDA_CHECK(cudaMalloc(&d, 4096 * sizeof(float))); // expected-warning {{loop-invariant}}
    CUDA_CHECK(cudaMemcpy(d, j.host, j.n * sizeof(float), cudaMemcpyHostToDevice));
    square<<<16, 256>>>(d, j.n);
    CUDA_CHECK(cudaMemcpy(h_result, d, j.n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
    h_result += j.n;
  }
}
