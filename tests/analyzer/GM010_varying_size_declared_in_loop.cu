// The clean twin of GM010_invariant_size_declared_in_loop: sizes computed in
// the loop body that really do change from one iteration to the next (read
// through the loop counter, or changed after their declaration), so the
// finding says the size varies.
#include <cuda_runtime.h>

__global__ void axpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

void per_layer(const int* widths, int nlayers) {
  for (int l = 0; l < nlayers; ++l) { // expected-note {{the loop}}
    size_t bytes = widths[l] * sizeof(float);
    float* d_act = nullptr;
    cudaMalloc(&d_act, bytes); // expected-warning {{its size varies}}
    axpy<<<(widths[l] + 255) / 256, 256>>>(d_act, d_act, 1.f, widths[l]);
    cudaFree(d_act);
  }
}

void doubling_on_odd_steps(int n, int steps) {
  for (int s = 0; s < steps; ++s) { // expected-note {{the loop}}
    size_t bytes = n * sizeof(float);
    if (s & 1)
      bytes *= 2;
    float* d_tmp = nullptr;
    cudaMalloc(&d_tmp, bytes); // expected-warning {{its size varies}}
    axpy<<<(n + 255) / 256, 256>>>(d_tmp, d_tmp, 1.f, n);
    cudaFree(d_tmp);
  }
}

void from_counter(int n, int steps) {
  for (int s = 1; s <= steps; ++s) { // expected-note {{the loop}}
    const int len = n * s;
    float* d_tmp = nullptr;
    cudaMalloc(&d_tmp, len * sizeof(float)); // expected-warning {{its size varies}}
    axpy<<<(len + 255) / 256, 256>>>(d_tmp, d_tmp, 1.f, len);
    cudaFree(d_tmp);
  }
}
