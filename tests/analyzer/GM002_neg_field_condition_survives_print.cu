// expected-no-diagnostics
// A condition on a local struct's field picks the allocator and, later, the free. printf in
// between cannot change the struct (its address went only to the toolkit), so the two tests
// agree.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

int touch_all(int dev, size_t n) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  float* data;
  if (prop.pageableMemoryAccess)
    data = (float*)malloc(n * sizeof(float));
  else
    cudaMallocManaged(&data, n * sizeof(float));
  printf("device %d: %s\n", dev, prop.name);
  for (size_t i = 0; i < n; ++i)
    data[i] = 1.0f;
  if (prop.pageableMemoryAccess)
    free(data);
  else
    cudaFree(data);
  return 0;
}
