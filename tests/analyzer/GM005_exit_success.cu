// main that ends with exit(EXIT_SUCCESS) is checked like one that ends with `return 0`: the
// program ends there with d_out still allocated.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const size_t n = 1 << 20;
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float)); // expected-warning {{'d_out' (device memory from cudaMalloc) is not freed before 'main' ends the program with a success status; call cudaFree before exiting [GM005 unfreed-at-exit]}}
  cudaMemset(d_in, 0, n * sizeof(float));
  cudaMemcpy(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(d_in);
  printf("done\n");
  exit(EXIT_SUCCESS); // expected-note {{this call to 'exit' ends the program without freeing 'd_out'}}
}
