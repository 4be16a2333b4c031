#include <cuda_runtime.h>

#include "worker.h"

uint32_t *d_state[MAX_THREADS];
uint32_t *d_found[MAX_THREADS];
uint32_t *h_found[MAX_THREADS];

void worker_init(int thr, size_t n) {
  cudaMalloc(&d_state[thr], n * sizeof(uint32_t));
  cudaMalloc(&d_found[thr], 2 * sizeof(uint32_t)); // expected-warning {{'d_found[]' (device memory from cudaMalloc) is never freed: no function in the program releases it, while 'd_state[]', allocated with it in 'worker_init', is freed in 'worker_release'; free it there with cudaFree [GM001 unpaired-allocation]}} expected-note@release.cu:6 {{'d_state[]' is freed here, in 'worker_release'}}
  cudaMallocHost(&h_found[thr], 2 * sizeof(uint32_t));
}

// launch_step (kernels.cu) only launches with the buffers: they stay the tables'.
int worker_scan(int thr) {
  launch_step(d_state[thr], d_found[thr]);
  cudaMemcpy(h_found[thr], d_found[thr], 2 * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  return (int)h_found[thr][0];
}
