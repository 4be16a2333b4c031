// exit(0) ends the program from whatever function calls it, as a return from main does: what
// that function still holds is not freed before the program ends.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

void finish_early(size_t n) {
  float *d = nullptr;
  cudaMalloc(&d, n); // expected-warning {{'d' (device memory from cudaMalloc) is not freed before 'finish_early' ends the program with a success status; call cudaFree before exiting [GM005 unfreed-at-exit]}}
  cudaMemset(d, 0, n);
  printf("nothing left to do\n");
  exit(EXIT_SUCCESS); // expected-note {{this call to 'exit' ends the program without freeing 'd'}}
}

int main(int argc, char **argv) {
  finish_early(argc > 1 ? (size_t)atoi(argv[1]) : 1024);
  return 0;
}
