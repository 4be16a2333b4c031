// expected-no-diagnostics
// The clean twin of GM002_global_pinned_freed_with_cudaFree.cu: each table's memory released
// by its own family's free.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_THREADS 8

static uint32_t *d_result[MAX_THREADS];
static uint32_t *h_result[MAX_THREADS];
static float *h_staging[MAX_THREADS];

void result_init(int thr) {
  cudaMalloc(&d_result[thr], 4 * sizeof(uint32_t));
  cudaMallocHost((void **)&h_result[thr], 4 * sizeof(uint32_t));
}

void result_release(int thr) {
  cudaFree(d_result[thr]);
  cudaFreeHost(h_result[thr]);
}

float staging_sum(int thr, int n) {
  cudaMallocHost(&h_staging[thr], n * sizeof(float));
  float sum = 0;
  for (int i = 0; i < n; i++)
    sum += h_staging[thr][i];
  cudaFreeHost(h_staging[thr]);
  return sum;
}
