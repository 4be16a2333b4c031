// expected-no-diagnostics
// A loop with no counter (a list walk) between the two tests of the flag: its increment writes an
// ordinary variable, which must leave the flag's decision as it was.
#include <cuda_runtime.h>
#include <stdlib.h>

struct Node {
  Node* next;
  size_t bytes;
};

size_t stage(Node* p, bool pinned, size_t n) {
  float* h;
  if (pinned)
    cudaMallocHost(&h, n);
  else
    h = (float*)malloc(n);
  size_t total = 0;
  for (; p; p = p->next)
    total += p->bytes;
  if (pinned)
    cudaFreeHost(h);
  else
    free(h);
  return total;
}
