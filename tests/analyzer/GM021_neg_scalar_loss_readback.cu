// expected-no-diagnostics
// Training loop that reads back the scalar loss every step: a small copy in
// a loop, but from the same address each time; it is needed for logging and
// early stopping and cannot be batched.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void sgd_step(float* w, const float* g, float* loss, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= 0.01f * g[i];
  if (i == 0) *loss = w[0] * w[0];
}

void train(float* d_w, const float* d_g, int n, int steps) {
  float* d_loss = nullptr;
  cudaMalloc(&d_loss, sizeof(float));
  float loss = 0.f;
  for (int step = 0; step < steps; ++step) {
    sgd_step<<<(n + 255) / 256, 256>>>(d_w, d_g, d_loss, n);
    cudaMemcpy(&loss, d_loss, sizeof(float), cudaMemcpyDeviceToHost);
    if (step % 100 == 0)
      printf("step %d loss %f\n", step, loss);
    if (loss < 1e-6f)
      break;
  }
  cudaFree(d_loss);
}
