// An allocation into an element of a global table, made on every call without looking at what
// the element holds, in a function a loop calls for the same element: each call after the
// first overwrites (loses) the block the last one stored.
// expected-rules-unchecked GM010: the helpers allocate on every call from a loop, GM010's cost finding; GM010's own tests cover it
#include <cuda_runtime.h>

static float* slots[4];
float* staging[2];

void fill_slot(int i, size_t n) {
  cudaMalloc(&slots[i], n); // expected-warning {{'slots[i]' (device memory from cudaMalloc) leaks on each call of 'fill_slot' after the first: it overwrites the global table's element without testing or freeing the block stored there, and a loop calls 'fill_slot' for the same element; call cudaFree on the old block first, or allocate only when the element is empty [GM001 unpaired-allocation]}}
  cudaMemset(slots[i], 0, n);
}

void fill_staging(size_t n) {
  cudaMallocHost((void**)&staging[1], n); // expected-warning {{'staging[1]' (pinned host memory from cudaMallocHost) leaks on each call of 'fill_staging' after the first: it overwrites the global table's element without testing or freeing the block stored there, and a loop calls 'fill_staging' for the same element; call cudaFreeHost on the old block first, or allocate only when the element is empty [GM001 unpaired-allocation]}}
}

__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }

int main() {
  for (int k = 0; k < 10; k++) {
    fill_slot(0, 64); // expected-note {{'main' calls 'fill_slot' here on every iteration of a loop, for the same element}}
    scale<<<1, 16>>>(slots[0]);
  }
  int step = 0;
  while (step < 100) {
    fill_staging(1 << 20); // expected-note {{'main' calls 'fill_staging' here on every iteration of a loop, for the same element}}
    ++step;
  }
  return 0;
}
