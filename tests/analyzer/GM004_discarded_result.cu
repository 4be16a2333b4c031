// The result of malloc is thrown away: nothing can ever free it.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <stdio.h>

static void warm_up_allocator(size_t bytes) {
  malloc(bytes); // expected-warning {{host heap memory from malloc is not freed on every path through 'warm_up_allocator'; call free when it is no longer needed [GM004 unpaired-host-allocation]}}
  void* d = nullptr;
  cudaMalloc(&d, bytes);
  cudaFree(d);
} // expected-note {{'warm_up_allocator' ends here without freeing it}}

int main() {
  warm_up_allocator(1 << 20);
  printf("ready\n");
  return 0;
}
