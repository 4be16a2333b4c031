// free() of a pointer into the middle of the block (header skipped).
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

struct Header { int count; int pad; };

void send_records(float* d_dst, const float* src, int count) {
  char* block = (char*)malloc(sizeof(Header) + count * sizeof(float)); // expected-note {{allocated here with malloc}}
  if (!block)
    return;
  Header h = {count, 0};
  memcpy(block, &h, sizeof h);
  memcpy(block + sizeof(Header), src, count * sizeof(float));
  cudaMemcpy(d_dst, block + sizeof(Header), count * sizeof(float), cudaMemcpyHostToDevice);
  free(block + sizeof(Header)); // expected-warning {{'block' (host heap memory from malloc) is given to free at an offset from the pointer the allocation returned; pass the original pointer [GM002 mismatched-free]}}
}
