// Pinned host memory kept in a per-thread table and released with the device free: the call
// fails and the memory stays allocated. The flow engine does not follow a table's elements, so
// the program judges the table as a member of its global object, in the allocating function too.
#include <cuda_runtime.h>
#include <stdint.h>

#define MAX_THREADS 8

static uint32_t *d_result[MAX_THREADS];
static uint32_t *h_result[MAX_THREADS];
static float *h_staging[MAX_THREADS];

void result_init(int thr) {
  cudaMalloc(&d_result[thr], 4 * sizeof(uint32_t));
  cudaMallocHost((void **)&h_result[thr], 4 * sizeof(uint32_t)); // expected-note {{allocated here with cudaMallocHost}}
}

void result_release(int thr) {
  cudaFree(d_result[thr]);
  cudaFree(h_result[thr]); // expected-warning {{'h_result[]' (pinned host memory from cudaMallocHost, allocated in 'result_init') is released with cudaFree, which does not free it; use cudaFreeHost [GM002 mismatched-free]}}
}

float staging_sum(int thr, int n) {
  cudaMallocHost(&h_staging[thr], n * sizeof(float)); // expected-note {{allocated here with cudaMallocHost}}
  float sum = 0;
  for (int i = 0; i < n; i++)
    sum += h_staging[thr][i];
  cudaFree(h_staging[thr]); // expected-warning {{'h_staging[]' (pinned host memory from cudaMallocHost, allocated in 'staging_sum') is released with cudaFree, which does not free it; use cudaFreeHost [GM002 mismatched-free]}}
  return sum;
}
