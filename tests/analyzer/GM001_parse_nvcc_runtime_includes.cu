// nvcc's runtime headers (crt/common_functions.h, crt/math_functions.h) include <stdio.h>,
// <stdlib.h>, <string.h>, <time.h>, <assert.h> and <math.h>, and sources written for nvcc call
// printf, clock, assert and a host isfinite without including them. gmemlint's compat header includes them too, so this file parses cleanly and
// its leak is found.
#include <cuda_runtime.h>

int timed_upload(const float *host, size_t n, FILE *log) {
  assert(n > 0 && isfinite(host[0]));
  clock_t start = clock();
  float *d_data = nullptr;
  cudaMalloc(&d_data, n * sizeof(float)); // expected-warning {{'d_data' (device memory from cudaMalloc) is not freed on every path}}
  cudaMemcpy(d_data, host, n * sizeof(float), cudaMemcpyHostToDevice);
  if (n > (1u << 28)) {
    fprintf(log, "too large after %ld ticks\n", (long)(clock() - start));
    return -1; // expected-note {{this return leaves without freeing 'd_data'}}
  }
  printf("uploaded %zu floats at %ld\n", n, (long)time(NULL));
  cudaFree(d_data);
  return 0;
}
