// expected-no-diagnostics
// A cursor walks an interior pointer; the base pointer is what gets freed.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

struct Header { int count; int pad; };

void send_records(float* d_dst, const float* src, int count) {
  char* block = (char*)malloc(sizeof(Header) + count * sizeof(float));
  if (!block)
    return;
  Header h = {count, 0};
  memcpy(block, &h, sizeof h);
  char* payload = block + sizeof(Header);
  memcpy(payload, src, count * sizeof(float));
  cudaMemcpy(d_dst, payload, count * sizeof(float), cudaMemcpyHostToDevice);
  free(block);
}
