// expected-no-diagnostics
// Clean twin of GM001_global_slot_refilled_in_loop.cu: the element is tested before it is
// allocated, or freed first (in the function, by a helper it calls, or in the loop), the loop
// fills another element on each iteration, or the function is called once.
// expected-rules-unchecked GM010: the helpers allocate on every call from a loop, GM010's cost finding; GM010's own tests cover it
#include <cuda_runtime.h>

static float* slots[4];
static float* lazy[4];
static float* fresh[4];
static float* cycled[4];
static float* once[4];

void fill_lazy(int i, size_t n) {
  if (!lazy[i])
    cudaMalloc(&lazy[i], n);
}

void fill_fresh(int i, size_t n) {
  cudaFree(fresh[i]);
  cudaMalloc(&fresh[i], n);
}

void release_cycled(int i) { cudaFree(cycled[i]); }

void fill_cycled(int i, size_t n) {
  release_cycled(i);
  cudaMalloc(&cycled[i], n);
}

void fill_slot(int i, size_t n) { cudaMalloc(&slots[i], n); }

void release_slot(int i) {
  cudaFree(slots[i]);
  slots[i] = nullptr;
}

void fill_once(int i, size_t n) { cudaMalloc(&once[i], n); }

void teardown() {
  for (int i = 0; i < 4; i++) {
    cudaFree(slots[i]);
    cudaFree(lazy[i]);
    cudaFree(fresh[i]);
    cudaFree(cycled[i]);
    cudaFree(once[i]);
  }
}

int main() {
  for (int k = 0; k < 10; k++) {
    fill_lazy(0, 64);
    fill_fresh(1, 64);
    fill_cycled(2, 64);
  }
  for (int i = 0; i < 4; i++)
    fill_slot(i, 64); // another element on each iteration
  for (int k = 0; k < 10; k++) {
    release_slot(3);
    fill_slot(3, 64); // freed in the loop before it is filled again
  }
  fill_once(0, 64);
  teardown();
  return 0;
}
