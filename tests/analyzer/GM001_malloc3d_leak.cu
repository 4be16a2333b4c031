// cudaMalloc3D fills a cudaPitchedPtr; its .ptr is never freed on the
// error path after the memset.
#include <cuda_runtime.h>
#include <stdio.h>

int clear_volume(int nx, int ny, int nz) {
  cudaExtent ext = make_cudaExtent(nx * sizeof(float), ny, nz);
  cudaPitchedPtr vol;
  if (cudaMalloc3D(&vol, ext) != cudaSuccess) // expected-warning {{'vol' (device memory from cudaMalloc3D) is not freed on an error path: a return after a failed call leaves 'clear_volume' without releasing it; call cudaFree before returning [GM001 unpaired-allocation]}}
    return -1;
  if (cudaMemset3D(vol, 0, ext) != cudaSuccess) {
    fprintf(stderr, "memset3D failed\n");
    return -1; // expected-note {{this return after a failed call leaves without freeing 'vol'}}
  }
  printf("pitch = %zu\n", vol.pitch);
  cudaFree(vol.ptr);
  return 0;
}
