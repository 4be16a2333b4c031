// expected-no-diagnostics
#include <cuda_runtime.h>

#include "worker.h"

uint32_t *d_state[MAX_THREADS];
uint32_t *d_found[MAX_THREADS];
uint32_t *h_found[MAX_THREADS];
uint32_t *d_history[MAX_THREADS];

void worker_init(int thr, size_t n) {
  cudaMalloc(&d_state[thr], n * sizeof(uint32_t));
  cudaMalloc(&d_found[thr], 2 * sizeof(uint32_t));
  cudaMallocHost(&h_found[thr], 2 * sizeof(uint32_t));
  cudaMalloc(&d_history[thr], n * sizeof(uint32_t));
  keep_history(d_history[thr]);
}

int worker_scan(int thr) {
  launch_step(d_state[thr], d_found[thr]);
  cudaMemcpy(h_found[thr], d_found[thr], 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  return (int)h_found[thr][0];
}
