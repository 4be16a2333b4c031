// expected-no-diagnostics
// Success checked with cudaGetLastError() right after the allocation, instead of its return
// value: the return on the error branch means the allocation failed, so nothing leaks there.
#include <cuda_runtime.h>
#include <stdio.h>

int compared(size_t n) {
  float *p = nullptr;
  cudaMalloc(&p, n);
  if (cudaGetLastError() != cudaSuccess)
    return -1;
  cudaFree(p);
  return 0;
}

int through_a_variable(size_t n) {
  float *p = nullptr;
  cudaMalloc(&p, n);
  float *h = (float *)malloc(n); // host calls do not change the runtime's status
  cudaError_t e = cudaGetLastError();
  if (e) {
    free(h);
    printf("%s\n", cudaGetErrorString(e));
    return -1;
  }
  free(h);
  cudaFree(p);
  return 0;
}

#define CHECK_LAST(msg)                                                 \
  do {                                                                  \
    cudaError_t err_ = cudaGetLastError();                              \
    if (err_ != cudaSuccess) {                                          \
      fprintf(stderr, "%s: %s\n", msg, cudaGetErrorString(err_));       \
      return -1;                                                        \
    }                                                                   \
  } while (0)

int in_a_macro(size_t n) {
  float *p = nullptr, *q = nullptr;
  cudaMallocHost(&p, n);
  CHECK_LAST("pinned");
  cudaMalloc(&q, n);
  if (cudaGetLastError() != cudaSuccess) {
    cudaFreeHost(p);
    return -1;
  }
  cudaFree(q);
  cudaFreeHost(p);
  return 0;
}
