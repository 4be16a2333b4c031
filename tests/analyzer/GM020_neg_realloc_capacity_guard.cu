// expected-no-diagnostics
// The classic vector push_back: realloc only when the array is full, doubling
// the capacity in that branch.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

int next_id(void); // -1 at end

int* read_ids(int* count) {
  int cap = 16;
  int n = 0;
  int* ids = (int*)malloc(cap * sizeof(int));
  for (int id = next_id(); id >= 0; id = next_id()) {
    if (n == cap) {
      cap *= 2;
      ids = (int*)realloc(ids, cap * sizeof(int));
    }
    ids[n++] = id;
  }
  *count = n;
  return ids;
}

void upload_ids(int** d_ids, int* n) {
  int* h = read_ids(n);
  cudaMalloc(d_ids, *n * sizeof(int));
  cudaMemcpy(*d_ids, h, *n * sizeof(int), cudaMemcpyHostToDevice);
  free(h);
}
