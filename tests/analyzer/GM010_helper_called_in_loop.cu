// The allocation lives in a helper that the loop calls on every iteration.
// The finding is anchored at the allocation inside the helper.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void reduce_block(const float* in, float* out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float acc = 0.f;
    for (int k = 0; k < 256; ++k) acc += s[k];
    out[blockIdx.x] = acc;
  }
}

static float block_sum(const float* d_in, int n) {
  int blocks = (n + 255) / 256;
  float* d_partial = nullptr;
  cudaMalloc(&d_partial, blocks * sizeof(float)); // expected-warning {{GM010}}
  reduce_block<<<blocks, 256>>>(d_in, d_partial, n);
  float first = 0.f;
  cudaMemcpy(&first, d_partial, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_partial);
  return first;
}

float sum_all(const float* const* d_layers, int nlayers, int n) {
  float total = 0.f;
  for (int l = 0; l < nlayers; ++l)
    total += block_sum(d_layers[l], n); // expected-note {{called in a loop}}
  return total;
}
