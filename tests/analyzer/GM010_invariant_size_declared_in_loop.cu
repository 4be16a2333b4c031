// The size is computed inside the loop body, but only from values the loop
// never changes: every iteration allocates the same number of bytes, so the
// finding says the size is loop-invariant (hoist it), not that it varies.
#include <cuda_runtime.h>

__global__ void axpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

void smooth(float* d_y, const float* d_x, int n, int iters) {
  for (int it = 0; it < iters; ++it) { // expected-note {{the loop}}
    size_t bytes = n * sizeof(float);
    const size_t padded = bytes + 256;
    float* d_tmp = nullptr;
    cudaMalloc(&d_tmp, padded); // expected-warning {{with a loop-invariant size}}
    axpy<<<(n + 255) / 256, 256>>>(d_tmp, d_x, 0.5f, n);
    axpy<<<(n + 255) / 256, 256>>>(d_y, d_tmp, 0.5f, n);
    cudaFree(d_tmp);
  }
}

struct Shape {
  int rows, cols;
};

void per_batch(const Shape* shape, int nbatch) {
  int b = 0;
  while (b < nbatch) { // expected-note {{the loop}}
    const int elems = shape->rows * shape->cols;
    float* d_act = nullptr;
    cudaMalloc(&d_act, elems * sizeof(float)); // expected-warning {{with a loop-invariant size}}
    axpy<<<(elems + 255) / 256, 256>>>(d_act, d_act, 1.f, elems);
    cudaFree(d_act);
    ++b;
  }
}
