// Runtime twins: small copies the static pass cannot see. Each row is uploaded by a
// helper called through a table of function pointers, so GM021 stays silent on this file; the
// run's telemetry shows 8192 copies of 256 B and GM121 reports them, against the bandwidth the
// large upload in the same direction achieved (tests/gpu/join_twins.sh checks it).
#include <cstdio>
#include <cuda_runtime.h>

typedef void (*upload_fn)(float *dst, const float *src, size_t n);

static void upload_row(float *dst, const float *src, size_t n) {
  cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyHostToDevice); // @hidden_small_copy
}

int main() {
  const int rows = 8192, cols = 64; // 8192 rows of 256 B
  const size_t big = 64u << 20;     // the large upload: 64 MiB
  float *h, *d;
  cudaMallocHost(&h, big); // pinned: the large copy runs at the link's speed
  cudaMalloc(&d, big);
  for (size_t i = 0; i < big / sizeof(float); ++i)
    h[i] = 1.0f;
  upload_fn uploads[] = {upload_row};
  for (int r = 0; r < rows; ++r)
    uploads[0](d + (size_t)r * cols, h + (size_t)r * cols, cols);
  for (int k = 0; k < 8; ++k)
    cudaMemcpy(d, h, big, cudaMemcpyHostToDevice); // @large_copy
  cudaDeviceSynchronize();
  cudaFree(d);
  cudaFreeHost(h);
  std::printf("small_copies_hidden: %d rows of %zu B, 8 copies of %zu MiB\n", rows,
              cols * sizeof(float), big >> 20);
  return 0;
}
