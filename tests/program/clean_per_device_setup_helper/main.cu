// expected-no-diagnostics
#include <cuda_runtime.h>

#include "devices.h"

int main() {
  int count = 0;
  cudaGetDeviceCount(&count);
  DeviceState states[8];
  if (count > 8)
    count = 8;
  for (int d = 0; d < count; ++d)
    init_device(&states[d], d, 1 << 24);
  for (int d = 0; d < count; ++d)
    release_device(&states[d], d);
  return 0;
}
