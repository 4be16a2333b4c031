// Memory from operator new released with free().
#include <cuda_runtime.h>
#include <stdlib.h>

struct DeviceInfo {
  int id;
  size_t free_bytes;
  size_t total_bytes;
};

size_t query_free_memory(int id) {
  DeviceInfo* info = new DeviceInfo{id, 0, 0}; // expected-note {{allocated here with new}}
  cudaSetDevice(info->id);
  cudaMemGetInfo(&info->free_bytes, &info->total_bytes);
  size_t f = info->free_bytes;
  free(info); // expected-warning {{'info' (heap object from new) is released with free, which frees host heap memory; use delete [GM002 mismatched-free]}}
  return f;
}
