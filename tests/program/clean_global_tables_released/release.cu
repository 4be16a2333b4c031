// expected-no-diagnostics
#include <cuda_runtime.h>

#include "worker.h"

void worker_release(int thr) {
  cudaFree(d_state[thr]);
  cudaFree(d_found[thr]);
  cudaFreeHost(h_found[thr]);
}

int main() {
  for (int round = 0; round < 3; round++) {
    worker_init(0, 1 << 20);
    worker_scan(0);
    worker_release(0);
  }
  return 0;
}
