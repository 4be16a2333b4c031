// GM120: a buffer regrown through a helper called through a function pointer (the static pass
// cannot see the loop), one regrown only three times (below the threshold), and a loop GM020
// sees (its verdict covers the site).
#include <cuda_runtime.h>

typedef void (*append_fn)(float **buf, size_t *n, const float *chunk, size_t len);

static void append_rows(float **buf, size_t *n, const float *chunk, size_t len) {
  float *grown;
  cudaMalloc(&grown, (*n + len) * sizeof(float));
  cudaMemcpy(grown, *buf, *n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaMemcpy(grown + *n, chunk, len * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(*buf);
  *buf = grown;
  *n += len;
}

static void append_labels(float **buf, size_t *n, const float *chunk, size_t len) {
  float *grown;
  cudaMalloc(&grown, (*n + len) * sizeof(float));
  cudaMemcpy(grown, *buf, *n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaMemcpy(grown + *n, chunk, len * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(*buf);
  *buf = grown;
  *n += len;
}

int main() {
  const size_t len = 1 << 16;
  float *chunk;
  cudaMalloc(&chunk, len * sizeof(float));
  append_fn steps[2] = {append_rows, append_labels};
  float *rows = nullptr, *labels = nullptr;
  size_t nrows = 0, nlabels = 0;
  for (int i = 0; i < 64; ++i)
    steps[0](&rows, &nrows, chunk, len);
  for (int i = 0; i < 3; ++i)
    steps[1](&labels, &nlabels, chunk, len);
  float *all = nullptr;
  size_t total = 0;
  for (int i = 0; i < 32; ++i) {
    float *next;
    cudaMalloc(&next, (total + len) * sizeof(float));
    cudaMemcpy(next, all, total * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(all);
    all = next;
    total += len;
  }
  cudaFree(all);
  cudaFree(rows);
  cudaFree(labels);
  cudaFree(chunk);
  return 0;
}
