// expected-no-diagnostics
#include <cuda_runtime.h>

#include "devices.h"

void init_device(DeviceState *state, int device, size_t bytes) {
  cudaSetDevice(device);
  cudaMalloc(&state->d_buffer, bytes);
  state->bytes = bytes;
}

void release_device(DeviceState *state, int device) {
  cudaSetDevice(device);
  cudaFree(state->d_buffer);
  state->d_buffer = nullptr;
}
