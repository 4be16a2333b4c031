// The result of malloc is thrown away: nothing can ever free it.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <stdio.h>

static void warm_up_allocator(size_t bytes) {
  malloc(bytes); // expected-warning {{GM004}}
  void* d = nullptr;
  cudaMalloc(&d, bytes);
  cudaFree(d);
} // expected-note {{'warm_up_allocator' ends here without freeing it}}

int main() {
  warm_up_allocator(1 << 20);
  printf("ready\n");
  return 0;
}
