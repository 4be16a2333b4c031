// A scratch buffer allocated once before the loop is freed inside the
// do/while body, so the second iteration frees it again (the first
// iteration always runs, so there is no leak).
#include <cuda_runtime.h>

__global__ void step(float* s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) s[i] += 1.f;
}

void iterate(int n, int steps) {
  float* scratch = nullptr;
  if (cudaMalloc(&scratch, n * sizeof(float)) != cudaSuccess) // expected-note {{allocated here with cudaMalloc}}
    return;
  int k = 0;
  do {
    step<<<(n + 255) / 256, 256>>>(scratch, n);
    cudaDeviceSynchronize();
    cudaFree(scratch); // expected-warning {{'scratch' (device memory from cudaMalloc) is freed twice: cudaFree already released it on this path; set the pointer to null after freeing it, or free it in one place [GM003 double-free]}} expected-note {{first freed here}}
  } while (++k < steps);
}
