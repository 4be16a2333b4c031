// expected-no-diagnostics
// Linked structure in managed memory walked by a kernel through next
// pointers: irregular access, not dense.
#include <cuda_runtime.h>
#include <stdio.h>

struct Node {
  int value;
  Node* next;
};

__global__ void list_sum(const Node* head, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int s = 0;
    for (const Node* node = head; node; node = node->next)
      s += node->value;
    *out = s;
  }
}

int sum_list(int n) {
  Node* nodes = nullptr;
  cudaMallocManaged(&nodes, n * sizeof(Node));
  for (int i = 0; i < n; ++i) {
    nodes[i].value = i;
    nodes[i].next = i + 1 < n ? &nodes[(i * 7 + 3) % n] : nullptr;
  }
  int* d_out = nullptr;
  cudaMalloc(&d_out, sizeof(int));
  list_sum<<<1, 32>>>(nodes, d_out);
  int s = 0;
  cudaMemcpy(&s, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  cudaFree(nodes);
  return s;
}
