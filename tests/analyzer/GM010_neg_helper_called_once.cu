// expected-no-diagnostics
// A helper that allocates is called once, before the loop; only kernel
// launches happen in the loop.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void advance(float* pos, const float* vel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pos[i] += vel[i] * dt;
}

static float* make_device_array(int n, float value) {
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  (void)value;
  return d;
}

void simulate(int n, int steps) {
  float* pos = make_device_array(n, 0.f);
  float* vel = make_device_array(n, 1.f);
  for (int s = 0; s < steps; ++s)
    advance<<<(n + 255) / 256, 256>>>(pos, vel, 0.01f, n);
  cudaDeviceSynchronize();
  cudaFree(pos);
  cudaFree(vel);
}
