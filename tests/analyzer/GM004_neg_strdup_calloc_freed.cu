// expected-no-diagnostics
// strdup and calloc results freed on every path.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int describe_devices(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess)
    return -1;
  size_t* mems = (size_t*)calloc(count > 0 ? count : 1, sizeof(size_t));
  if (!mems)
    return -1;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
      free(mems);
      return -1;
    }
    char* name = strdup(prop.name);
    if (!name)
      continue;
    mems[d] = prop.totalGlobalMem;
    printf("%d: %s %zu\n", d, name, mems[d]);
    free(name);
  }
  free(mems);
  return count;
}
