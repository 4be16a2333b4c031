#include <cuda_runtime.h>

#include "worker.h"

void worker_release(int thr) {
  cudaFree(d_state[thr]);
  cudaFree(h_found[thr]); // expected-warning {{'h_found[]' (pinned host memory from cudaMallocHost, allocated in 'worker_init') is released with cudaFree, which does not free it; use cudaFreeHost [GM002 mismatched-free]}} expected-note@init.cu:12 {{allocated here with cudaMallocHost}}
}

int main() {
  for (int round = 0; round < 3; round++) {
    worker_init(0, 1 << 20);
    worker_scan(0);
    worker_release(0);
  }
  return 0;
}
