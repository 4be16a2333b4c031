#include <hostlib/staging.h>

int stage(const void *src) {
  void *pinned = nullptr;
  if (cudaMallocHost(&pinned, HOSTLIB_STAGING_BYTES) != cudaSuccess)
    return -1;
  (void)src;
  cudaFree(pinned); // BUG: pinned memory needs cudaFreeHost
  return 0;
}
