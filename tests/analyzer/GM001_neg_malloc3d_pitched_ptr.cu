// expected-no-diagnostics
// cudaMalloc3D fills a cudaPitchedPtr; cudaFree(vol.ptr) releases it.
#include <cuda_runtime.h>
#include <stdio.h>

int clear_volume(int nx, int ny, int nz) {
  cudaExtent ext = make_cudaExtent(nx * sizeof(float), ny, nz);
  cudaPitchedPtr vol;
  if (cudaMalloc3D(&vol, ext) != cudaSuccess)
    return -1;
  if (cudaMemset3D(vol, 0, ext) != cudaSuccess) {
    fprintf(stderr, "memset3D failed\n");
    cudaFree(vol.ptr);
    return -1;
  }
  printf("pitch = %zu\n", vol.pitch);
  cudaFree(vol.ptr);
  return 0;
}
