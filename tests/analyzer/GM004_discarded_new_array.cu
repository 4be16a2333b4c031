// A new[] expression whose result is discarded can never be deleted.
#include <cuda_runtime.h>
#include <stdio.h>

static int reserve_host_pool(int n) {
  new char[n]; // expected-warning {{heap array from new[] is not freed on every path: a return leaves 'reserve_host_pool' without releasing it; call delete[] before returning [GM004 unpaired-host-allocation]}}
  int dev = 0;
  cudaGetDevice(&dev);
  printf("reserved %d bytes next to device %d\n", n, dev);
  return dev; // expected-note {{this return leaves without freeing it}}
}

int main() { return reserve_host_pool(1 << 16) < 0; }
