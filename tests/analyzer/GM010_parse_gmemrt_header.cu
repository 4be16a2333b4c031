// <gmemlint/gmemrt.h> (gmem_step(), as docs/rules/GM102.md advises) is found by gmemlint as by
// gmemcc: a program that includes it parses, and its loops are analysed.
#include <cuda_runtime.h>
#include <gmemlint/gmemrt.h>

void train(int steps, size_t n) {
  for (int s = 0; s < steps; s++) { // expected-note {{the loop}}
    float *scratch = nullptr;
    cudaMalloc(&scratch, n); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    cudaFree(scratch);
    gmem_step();
  }
}
