// GM121 for a copy site whose calls go both ways: a helper, called through a function pointer,
// copies with the kind its caller passes, up for one array and back for the other. The run
// records the site's direction as mixed; the evidence says so and holds it against the fastest
// large copy in any direction.
#include <cuda_runtime.h>
#include <stddef.h>

typedef void (*move_fn)(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);

static void move_row(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
  cudaMemcpy(dst, src, bytes, kind);
}

int main() {
  const int rows = 4096, cols = 64;
  const size_t row = cols * sizeof(float), all = rows * row;
  float *h_in, *h_out, *d_in, *d_out;
  cudaMallocHost(&h_in, all);
  cudaMallocHost(&h_out, all);
  cudaMalloc(&d_in, all);
  cudaMalloc(&d_out, all);
  move_fn move = move_row;
  for (int r = 0; r < rows; ++r) // GM121: 8192 copies of 256 B, half up, half back
    move(d_in + r * cols, h_in + r * cols, row, cudaMemcpyHostToDevice);
  for (int r = 0; r < rows; ++r)
    move(h_out + r * cols, d_out + r * cols, row, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 16; ++k) // the large copy: 1 MiB each, host-to-device
    cudaMemcpy(d_out, h_in, all, cudaMemcpyHostToDevice);
  cudaFree(d_out);
  cudaFree(d_in);
  cudaFreeHost(h_out);
  cudaFreeHost(h_in);
  return 0;
}
