// The same two switches, with one case's free wrong: only that case is reported.
#include <cuda_runtime.h>
#include <stdlib.h>

void exercise(int kind, size_t bytes) {
  void* buf = NULL;
  switch (kind) {
  case 0:
    cudaMalloc(&buf, bytes);
    break;
  case 1:
    cudaMallocHost(&buf, bytes); // expected-note {{allocated here with cudaMallocHost}}
    break;
  default:
    buf = malloc(bytes);
    break;
  }
  switch (kind) {
  case 0:
    cudaFree(buf);
    break;
  case 1:
    cudaFree(buf); // expected-warning {{pinned host memory}}
    break;
  default:
    free(buf);
    break;
  }
}
