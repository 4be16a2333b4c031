// One buffer per device, made by a helper in another file (device_init.cu) from the setup loop
// (main.cu), and freed per device at the end: setup, not churn.
#pragma once
#include <cstddef>

struct DeviceState {
  float *d_buffer;
  size_t bytes;
};

void init_device(DeviceState *state, int device, size_t bytes);
void release_device(DeviceState *state, int device);
