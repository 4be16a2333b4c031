// Repeat loops whose bound starts as 1 but may change: set again from the command line, or
// handed by address to a parser. They may run many times, allocating on each iteration.
#include <cuda_runtime.h>
#include <stdlib.h>

void parse_runs(int *runs, int argc, char **argv);

int main(int argc, char **argv) {
  int runs = 1;
  if (argc > 1)
    runs = atoi(argv[1]);
  float *scratch = NULL;
  for (int run = 0; run < runs; ++run) { // expected-note {{the loop}}
    cudaMalloc(&scratch, 1024); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    cudaFree(scratch);
  }
  int repeats = 1;
  parse_runs(&repeats, argc, argv);
  for (int run = 0; run < repeats; ++run) { // expected-note {{the loop}}
    cudaMalloc(&scratch, 2048); // expected-warning {{cudaMalloc runs on every iteration of this loop with a loop-invariant size; on an H200 a cudaMalloc+cudaFree pair costs about 70-140 us and cudaFree synchronises the device, while cudaMallocAsync+cudaFreeAsync from a stream-ordered pool costs about 1 us. Hoist it: allocate once before the loop and free once after it}}
    cudaFree(scratch);
  }
  return 0;
}
