// The destination pointer is declared in the for statement and stepped by its
// increment: it advances regularly (the declaration only sets where it
// starts), so the per-element copies, and a 64-byte header copied into every
// row, are small transfers in a loop.
#include <cuda_runtime.h>

void upload(float* d, const float* h, int n) {
  const float* src = h;
  for (float* dst = d; dst != d + n; ++dst, ++src) // expected-note {{the loop}}
    cudaMemcpy(dst, src, sizeof(float), cudaMemcpyHostToDevice); // expected-warning {{moves 4 bytes}}
}

void broadcast_header(float* h, const float* d_header, int rows, int cols) {
  for (float* out = h; out < h + rows * cols; out += cols) // expected-note {{the loop}}
    cudaMemcpy(out, d_header, 16 * sizeof(float), cudaMemcpyDeviceToHost); // expected-warning {{moves 64 bytes}}
}
