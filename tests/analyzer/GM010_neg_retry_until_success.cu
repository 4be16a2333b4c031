// expected-no-diagnostics
// Retry loops that go round again only after the allocation failed: the condition holds only on
// a failure (the call compared with cudaSuccess, the bare call, a status variable the loop sets
// from the allocation alone, compared with cudaSuccess or with one error), or the branch a
// success takes leaves the loop. Each succeeds once.
#include <cuda_runtime.h>

__global__ void fill(float *p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = 1.0f;
}

void use(float *p, size_t bytes) {
  size_t n = bytes / sizeof(float);
  fill<<<(unsigned)((n + 255) / 256), 256>>>(p, n);
}

void halve_until_it_fits(size_t bytes) {
  float *p = nullptr;
  while (cudaMalloc(&p, bytes) != cudaSuccess)
    bytes /= 2;
  use(p, bytes);
  cudaFree(p);
}

void bare_status(size_t bytes) {
  float *p = nullptr;
  while (cudaMalloc(&p, bytes))
    bytes /= 2;
  use(p, bytes);
  cudaFree(p);
}

void status_variable(size_t bytes) {
  float *p = nullptr;
  cudaError_t err;
  do {
    err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess)
      bytes /= 2;
  } while (err != cudaSuccess);
  use(p, bytes);
  cudaFree(p);
}

void retry_on_out_of_memory(size_t bytes) {
  float *p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes);
  while (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    bytes /= 2;
    err = cudaMalloc(&p, bytes);
  }
  use(p, bytes);
  cudaFree(p);
}

size_t leave_on_success(size_t bytes) {
  float *p = nullptr;
  cudaError_t e;
  do {
    e = cudaMalloc(&p, bytes);
    if (e == cudaSuccess)
      break;
    cudaGetLastError();
    bytes /= 2;
  } while (bytes >= 4096);
  if (e != cudaSuccess)
    return 0;
  use(p, bytes);
  cudaFree(p);
  return bytes;
}

size_t test_in_place(size_t bytes) {
  float *p = nullptr;
  for (;;) {
    if (cudaMalloc(&p, bytes) == cudaSuccess)
      break;
    bytes /= 2;
  }
  use(p, bytes);
  cudaFree(p);
  return bytes;
}
