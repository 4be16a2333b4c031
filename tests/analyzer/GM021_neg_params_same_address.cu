// expected-no-diagnostics
// Per-timestep simulation parameters pushed to the same device struct every
// step with cudaMemcpyAsync: small and in a loop, but the address is fixed.
#include <cuda_runtime.h>
#include <stdio.h>

struct StepParams {
  float dt;
  float t;
  int step;
};

__global__ void integrate(const StepParams* p, float* x, const float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v[i] * p->dt;
}

void simulate(float* d_x, const float* d_v, int n, int steps, cudaStream_t s) {
  StepParams* d_p = nullptr;
  cudaMalloc(&d_p, sizeof(StepParams));
  StepParams hp;
  for (int k = 0; k < steps; ++k) {
    hp.dt = 0.001f * (1 + k % 3);
    hp.t = k * hp.dt;
    hp.step = k;
    cudaMemcpyAsync(d_p, &hp, sizeof(StepParams), cudaMemcpyHostToDevice, s);
    integrate<<<(n + 255) / 256, 256, 0, s>>>(d_p, d_x, d_v, n);
    cudaStreamSynchronize(s);
  }
  cudaFree(d_p);
}
