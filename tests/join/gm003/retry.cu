// GM003 verdicts: each function frees its buffer twice on an error path; the telemetry beside
// this file says what happened at run time (see expected.txt).
#include <cuda_runtime.h>
#include <stdlib.h>

int fails_twice(int n) { // confirmed: the runtime counted a double free
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  if (cudaMemset(d, 0, n) != cudaSuccess) {
    cudaFree(d);
  }
  cudaFree(d);
  return 0;
}

int rarely_fails(int n) { // dismissed: the second free ran, never on a freed pointer
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  if (cudaMemset(d, 0, n) != cudaSuccess) {
    cudaFree(d);
  }
  cudaFree(d);
  return 0;
}

int never_called(int n) { // not-exercised
  float *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  if (cudaMemset(d, 0, n) != cudaSuccess) {
    cudaFree(d);
  }
  cudaFree(d);
  return 0;
}

int host_twice(int n) { // unverifiable: malloc and free are not recorded
  char *h = (char *)malloc(n);
  if (!h)
    return -1;
  if (n > 4096) {
    free(h);
  }
  free(h);
  return 0;
}
