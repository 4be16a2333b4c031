// expected-no-diagnostics
#include <cuda_runtime.h>

#include "net.h"

void net_release(Net *n) {
  cudaFreeHost(n->staging);
  cudaFree(n->w);
}

int main() {
  Net n;
  net_init(&n, 1 << 20);
  net_release(&n);
  return 0;
}
