// A table of per-device buffers refilled on every step: the inner loop gives
// each element its own buffer, but the step loop around it frees the table
// again, so every step pays one cudaMalloc and one cudaFree per device. The
// finding names the step loop. A table loop that frees each element in the
// same iteration is churn too.
#include <cuda_runtime.h>

struct DevicePlan {
  float* buf;
  int device;
};

__global__ void fill(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 1.f;
}

void train(DevicePlan* plan, int ngpu, int steps, int n) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    for (int i = 0; i < ngpu; ++i) {
      cudaSetDevice(i);
      cudaMalloc(&plan[i].buf, n * sizeof(float)); // expected-warning {{loop-invariant size}}
      fill<<<(n + 255) / 256, 256>>>(plan[i].buf, n);
    }
    for (int i = 0; i < ngpu; ++i) {
      cudaSetDevice(i);
      cudaDeviceSynchronize();
      cudaFree(plan[i].buf);
    }
  }
}

void per_element_scratch(float** bufs, int k, int n) {
  for (int i = 0; i < k; ++i) { // expected-note {{the loop}}
    cudaMalloc((void**)(bufs + i), n * sizeof(float)); // expected-warning {{loop-invariant size}}
    fill<<<(n + 255) / 256, 256>>>(bufs[i], n);
    cudaFree(bufs[i]);
  }
}
