// expected-no-diagnostics
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "buffers.cuh"

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t status_ = (call);                                                                 \
    if (status_ != cudaSuccess) {                                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(status_));                                       \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

float *device_buffer(size_t count) {
  float *buffer = nullptr;
  CHECK(cudaMalloc(&buffer, count * sizeof(float)));
  return buffer;
}

void pinned_buffer(float **out, size_t count) {
  CHECK(cudaMallocHost(out, count * sizeof(float)));
}

void release_buffer(float *buffer) { CHECK(cudaFree(buffer)); }
