// GM121: small copies the static pass cannot see (helpers called through a table of function
// pointers), each held against the fastest large copy of the run in its direction; a flag read
// back to one place every step (not a range one copy could move); a helper that ran too few
// times; large copies (never reported); a loop GM021 sees (its verdict covers it).
#include <cuda_runtime.h>
#include <stddef.h>

typedef void (*copy_fn)(void *dst, const void *src, size_t bytes);

static void upload_row(void *dst, const void *src, size_t bytes) {
  cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
}

static void read_result(void *dst, const void *src, size_t bytes) {
  cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
}

static void copy_tile(void *dst, const void *src, size_t bytes) {
  cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
}

static void upload_header(void *dst, const void *src, size_t bytes) {
  cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
}

static void read_flag(void *dst, const void *src, size_t bytes) {
  cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
}

int main() {
  const int rows = 4096, cols = 64;
  const size_t row = cols * sizeof(float), all = rows * row;
  float *h, *d, *d2, out[128];
  int flag = 0;
  cudaMallocHost(&h, all);
  cudaMalloc(&d, all);
  cudaMalloc(&d2, 64 << 20);
  copy_fn ops[5] = {upload_row, read_result, copy_tile, upload_header, read_flag};
  for (int r = 0; r < rows; ++r) // GM121: 4096 uploads of 256 B, through ops[0]
    ops[0](d + r * cols, h + r * cols, row);
  for (int k = 0; k < 16; ++k) // the large host-to-device copy: 1 MiB each
    cudaMemcpy(d, h, all, cudaMemcpyHostToDevice);
  for (int k = 0; k < 4; ++k) // a large device-to-device copy: faster, another direction
    cudaMemcpy(d2, d, 64 << 20, cudaMemcpyDeviceToDevice);
  for (int t = 0; t < 128; ++t) // GM121: 128 reads of 4 B, no large device-to-host copy
    ops[1](&out[t], d + t * cols, sizeof(float));
  for (int t = 0; t < 128; ++t) // GM121: cudaMemcpyDefault, direction not known
    ops[2](d2 + t * 1024, d + t * 1024, 1024 * sizeof(float));
  for (int r = 0; r < 32; ++r) // below the threshold: 32 copies
    ops[3](d + r * cols, h + r * cols, row);
  for (int s = 0; s < 1000; ++s) // one flag to one place each step: nothing to batch
    ops[4](&flag, d, sizeof flag);
  for (int r = 0; r < rows; ++r) // GM021 sees this loop: its verdict covers the site
    cudaMemcpy(d + r * cols, h + r * cols, row, cudaMemcpyHostToDevice);
  cudaFree(d);
  cudaFree(d2);
  cudaFreeHost(h);
  return 0;
}
